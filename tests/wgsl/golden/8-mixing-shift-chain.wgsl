fn f(a: u32) -> u32 {
  return a << 1u << 2u;
}
