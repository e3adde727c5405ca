fn f() {
  var x = 1;
  var y = 1;
  x = y = 2;
}
