fn g(a: i32, a: i32) {}
