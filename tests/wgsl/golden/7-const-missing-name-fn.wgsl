fn f() {
  const = 1;
}
