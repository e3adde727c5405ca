fn f() {
  if true {
  } else {
    ,
  }
}
