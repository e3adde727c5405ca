fn f() {
  if true {
  } else if {
  }
}
