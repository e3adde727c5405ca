fn f() {
  var v : vec2f;
  v *= mat3x2f();
}
