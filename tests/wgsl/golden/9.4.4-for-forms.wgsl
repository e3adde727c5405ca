fn g() {}
fn f() {
  for (var i = 0; i < 4; i++) {
  }
  for (g(); false; g()) {
  }
  var j = 0;
  for (j = 1; j < 3; j += 1) {
  }
  for (; false; ) {
  }
}
