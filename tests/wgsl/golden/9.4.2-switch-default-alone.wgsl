fn f(a: u32) {
  switch (a) {
    default: {}
  }
}
