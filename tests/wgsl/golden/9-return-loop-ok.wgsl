fn f() -> i32 { loop { return 1; } }
