fn f() {
  for (;;) {
    ,
  }
}
