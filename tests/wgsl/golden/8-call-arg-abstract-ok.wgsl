fn g(a: f32) -> f32 { return a; }
fn f() { let x = g(1); }
