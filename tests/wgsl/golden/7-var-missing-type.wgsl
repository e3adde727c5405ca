fn f() {
  var x: ;
}
