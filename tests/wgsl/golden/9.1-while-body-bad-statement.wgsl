fn f() {
  while true {
    ,
  }
}
