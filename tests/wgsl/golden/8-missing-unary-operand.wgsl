fn f() {
  let x = -;
}
