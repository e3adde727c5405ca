fn f(a: i32, b: i32) -> bool {
  return a < b;
}
