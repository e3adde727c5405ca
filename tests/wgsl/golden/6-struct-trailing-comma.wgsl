struct S {
  a: i32,
  @align(16) b: vec3<f32>,
  @size(32) c: f32,
}
