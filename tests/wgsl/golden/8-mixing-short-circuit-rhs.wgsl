fn f(a: bool, c: i32, d: i32) -> bool {
  return a || c < d << d / c;
}
