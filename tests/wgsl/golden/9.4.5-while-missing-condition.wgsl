fn f() {
  while {
  }
}
