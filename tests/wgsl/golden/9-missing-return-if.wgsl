fn f(c: bool) -> i32 { if c { return 1; } }
