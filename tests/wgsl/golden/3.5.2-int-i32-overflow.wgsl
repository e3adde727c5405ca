fn f() {
  let x = 2147483648i;
}
