fn f() {
  loop @diagnostic(off, derivative_uniformity) {
    break;
  }
}
