fn f() {
  if true {
  } else return;
}
