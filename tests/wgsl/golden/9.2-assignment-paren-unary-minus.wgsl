fn f() {
  var b = 1;
  ( - b ) = 1;
}
