fn g() {}
fn f() { for (var i = 0; i < 3; g()) { break; } }
