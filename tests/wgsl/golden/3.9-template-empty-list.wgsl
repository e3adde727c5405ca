fn f() {
  let x = array<>();
}
