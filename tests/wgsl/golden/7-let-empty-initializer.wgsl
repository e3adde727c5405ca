fn f() {
  let x = ;
}
