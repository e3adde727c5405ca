fn f() {
  var v : i32 = 7;
  v %= 0;
}
