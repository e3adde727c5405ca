fn f() {
  if true return;
}
