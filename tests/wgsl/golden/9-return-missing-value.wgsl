fn f() -> i32 { return; }
