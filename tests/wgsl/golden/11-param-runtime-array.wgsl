fn g(a: array<i32>) {}
