fn f() { g(); }
fn g() { f(); }
