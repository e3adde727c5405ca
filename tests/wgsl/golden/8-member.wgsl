struct S { a: i32, b: vec2<f32> }
fn f() { var s: S; s.a = 1; s.b.x = 2.0; let t = S(1, vec2(1.0)).b; }
