fn g() {}
fn f() { let x = g; }
