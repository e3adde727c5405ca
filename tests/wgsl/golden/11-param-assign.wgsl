fn g(a: i32) { a = 2; }
