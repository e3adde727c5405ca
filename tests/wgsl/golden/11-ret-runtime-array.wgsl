fn g() -> array<i32> { }
