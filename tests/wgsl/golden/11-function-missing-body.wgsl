fn f() -> i32
