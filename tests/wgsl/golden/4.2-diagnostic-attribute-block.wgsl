fn f() {
  @diagnostic(off, derivative_uniformity) {
  }
}
