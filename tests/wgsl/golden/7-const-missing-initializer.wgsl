const x: i32;
