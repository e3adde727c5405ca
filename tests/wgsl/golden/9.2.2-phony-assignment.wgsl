fn g() -> i32 {
  return 1;
}
fn f() {
  _ = g();
  _ = 1 + 2;
}
