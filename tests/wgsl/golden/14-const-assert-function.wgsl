fn f() {
  const x = 4;
  const_assert x == 4;
}
