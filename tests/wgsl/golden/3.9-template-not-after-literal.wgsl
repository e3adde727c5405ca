fn f(a: bool, b: bool) -> bool {
  return true<a>b;
}
