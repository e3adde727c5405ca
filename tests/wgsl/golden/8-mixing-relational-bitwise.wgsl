fn f(a: i32, b: i32, c: bool) -> bool {
  return a < b & c;
}
