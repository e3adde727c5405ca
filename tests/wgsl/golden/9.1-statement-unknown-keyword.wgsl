fn f() {
  fn
}
