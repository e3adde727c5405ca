fn f() {
  var x = 1
}
