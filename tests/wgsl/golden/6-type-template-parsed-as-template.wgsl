struct S {
  v: array<vec4<f32> 2>,
}
