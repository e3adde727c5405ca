fn f() -> i32 { }
