fn g(a: i32, b: i32) -> i32 {
  return a + b;
}
fn f() -> i32 {
  return g(1, 2,);
}
