fn f() {
  const x;
}
