override a: f32 = 1.0;
override b = a * 2.0;
fn f() -> f32 { return b + 1; }
