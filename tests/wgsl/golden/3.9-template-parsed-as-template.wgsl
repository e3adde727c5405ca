fn g(x: bool, y: bool) {}
fn f(a: i32, b: i32, c: i32, d: i32) {
  g(a < b, c > d);
}
