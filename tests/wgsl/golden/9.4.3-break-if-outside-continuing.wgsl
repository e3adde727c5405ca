fn f() {
  loop {
    break if true;
  }
}
