fn f() {
  var v : vec3f;
  v *= mat3x2f();
}
