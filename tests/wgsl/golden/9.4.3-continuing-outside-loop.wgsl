fn f() {
  loop {
  }
  continuing {
  }
}
