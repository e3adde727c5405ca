fn f() {
  switch 1 @diagnostic(off, derivative_uniformity) {
    default {}
  }
}
