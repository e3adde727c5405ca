fn max(a: i32) -> i32 { return a; }
fn f() { let x = max(1); }
