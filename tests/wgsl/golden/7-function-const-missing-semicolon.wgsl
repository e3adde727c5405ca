fn f() {
  const x = 1
}
