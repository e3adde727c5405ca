fn f() {
  switch {
  }
}
