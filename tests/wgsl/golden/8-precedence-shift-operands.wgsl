fn f(a: u32, b: u32) -> bool {
  return (a << 1u) < (b >> 1u);
}
