fn f() -> i32 @diagnostic(off, derivative_uniformity) {
  return 1;
}
