fn f() {
  let x: = 1;
}
