struct S {
  @location(0) @interpolate(smooth) a: f32,
}
