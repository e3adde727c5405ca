fn f() {
  let = 1;
}
