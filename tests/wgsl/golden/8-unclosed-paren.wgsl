fn f() {
  let x = (1 + 2;
}
