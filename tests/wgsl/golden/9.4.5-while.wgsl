fn f() {
  var i = 0;
  while i < 4 {
    i++;
  }
  while (i > 0) {
    i--;
    continue;
  }
}
