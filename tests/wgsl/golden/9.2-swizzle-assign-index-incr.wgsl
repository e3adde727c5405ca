fn f() {
  var v : vec4f;
  v.zw[1]++;
}
