fn f() {
  var v : vec2u;
  v /= 1u;
  v /= vec2u(1, 0);
}
