fn f() {
  if true @diagnostic(off, derivative_uniformity) {
  }
}
