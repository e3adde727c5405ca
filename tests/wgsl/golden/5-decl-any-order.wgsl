fn f() -> i32 {
  return g() + N;
}
fn g() -> i32 {
  return 1;
}
const N = 2;
