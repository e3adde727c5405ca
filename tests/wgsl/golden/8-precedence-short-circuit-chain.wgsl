fn f(a: bool, b: bool, c: bool) -> bool {
  return a && b && c;
}
