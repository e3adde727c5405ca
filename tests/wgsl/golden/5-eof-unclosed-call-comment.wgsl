fn g(a: i32, b: i32) {}
fn f() { g(1, t//rue); }
