fn f() {
  x: i32;
}
