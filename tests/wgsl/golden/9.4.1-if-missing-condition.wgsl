fn f() {
  if {
  }
}
