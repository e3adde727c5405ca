var<> x: i32;
