fn f() {
  let self = 1;
}
