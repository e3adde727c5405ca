fn g() {}
fn f() {
  g()
}
