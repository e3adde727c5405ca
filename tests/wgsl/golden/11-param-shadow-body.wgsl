fn g(a: i32) { let a = 1; }
