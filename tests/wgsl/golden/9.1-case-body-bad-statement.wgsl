fn f() {
  switch 1 {
    default {
      ,
    }
  }
}
