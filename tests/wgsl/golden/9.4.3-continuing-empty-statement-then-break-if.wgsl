fn f() {
  var i = 0;
  loop {
    continuing {
      ;
      i++;
      break if i >= 8;
    }
  }
}
