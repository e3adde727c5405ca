var<function> x: i32;
