fn f() {
  var i = 0;
  loop {
    if i > 10 { break; }
    continuing {
      i++;
      break if i >= 4;
    }
  }
}
