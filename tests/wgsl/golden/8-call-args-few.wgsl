fn g(a: i32, b: i32) -> i32 { return a + b; }
fn f() { let x = g(1); }
