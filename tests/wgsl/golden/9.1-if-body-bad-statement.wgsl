fn f() {
  if true {
    ,
  }
}
