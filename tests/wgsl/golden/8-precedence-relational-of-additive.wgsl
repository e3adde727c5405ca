fn f(a: i32, b: i32) -> bool {
  return a + 1 < b * 2;
}
