struct S {
  v: array<vec4<f32>, 2>,
}
fn f(s: S) -> f32 {
  return s.v[1].x + s.v[0].yz.y;
}
