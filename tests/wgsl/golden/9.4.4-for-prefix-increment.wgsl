fn f() {
  for (var i = 0; i < 4; ++i) {
  }
}
