@must_use fn f() -> i32 {
  return 1;
}
fn g() {
  _ = f();
}
