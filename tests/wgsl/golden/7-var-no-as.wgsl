var x: i32;
