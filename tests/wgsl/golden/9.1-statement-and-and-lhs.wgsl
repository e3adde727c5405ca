fn f() {
  &&return;
}
