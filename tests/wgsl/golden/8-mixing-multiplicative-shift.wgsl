fn f(a: u32) -> u32 {
  return a * 2u >> 1u;
}
