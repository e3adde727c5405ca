fn g() -> atomic<i32> { }
