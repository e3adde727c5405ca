fn f() { var<function, read> x: i32; }
