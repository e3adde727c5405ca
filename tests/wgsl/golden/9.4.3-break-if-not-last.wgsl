fn f() {
  var x = 0u;
  loop {
    continuing {
      break if true;
      x = 0u;
    }
  }
}
