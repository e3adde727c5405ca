fn f() {
  var b = 1;
  ( b - b ) = 1;
}
