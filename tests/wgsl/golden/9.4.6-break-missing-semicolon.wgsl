fn f() {
  loop {
    break
  }
}
