fn f() {
  var<function x: i32;
}
