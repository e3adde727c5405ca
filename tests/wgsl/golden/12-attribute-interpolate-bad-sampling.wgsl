struct S {
  @location(0) @interpolate(flat, middle) a: f32,
}
