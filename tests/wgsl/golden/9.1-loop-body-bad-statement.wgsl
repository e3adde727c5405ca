fn f() {
  loop {
    ,
  }
}
