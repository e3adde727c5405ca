fn f() {
  @diagnostic(off, derivative_uniformity) whil e false {
  }
}
