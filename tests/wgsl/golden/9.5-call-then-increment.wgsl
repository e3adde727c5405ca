fn g(a: bool) -> i32 {
  return 1;
}
fn f(a: i32, b: i32, c: i32) {
  g(a < b) ++&& (b > c);
}
