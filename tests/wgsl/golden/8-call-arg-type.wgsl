fn g(a: i32) -> i32 { return a; }
fn f() { let x = g(1.5); }
