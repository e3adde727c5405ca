fn f() {
  loop {
    continuing {
      break if ;
    }
  }
}
