fn f() {
  var x = 1;
  --x;
}
