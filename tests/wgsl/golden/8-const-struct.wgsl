struct S { a: i32, b: vec2<f32> }
const s = S(1, vec2(2.0));
const_assert s.a == 1;
fn f() -> f32 { return s.b.y; }
