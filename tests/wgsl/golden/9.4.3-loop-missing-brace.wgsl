fn f() {
  loop
}
