fn f() {
  @align(4) let x = 1;
}
