fn f() {
  const_assert true
}
