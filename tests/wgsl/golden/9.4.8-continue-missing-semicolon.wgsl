fn f() {
  loop {
    continue
  }
}
