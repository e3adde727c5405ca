fn f() {
  return;
}
fn g() -> i32 {
  return (1);
}
