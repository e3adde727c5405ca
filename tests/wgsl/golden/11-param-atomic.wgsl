fn g(a: atomic<i32>) {}
