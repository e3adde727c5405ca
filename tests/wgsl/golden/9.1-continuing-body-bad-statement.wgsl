fn f() {
  loop {
    continuing {
      ,
    }
  }
}
