fn g(a: i32) {}
fn f() {
  ( g(1);
}
