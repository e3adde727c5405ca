fn f(a: i32, b: f32,) -> f32 {
  return f32(a) + b;
}
