fn f() {
  var v : vec4i;
  let q = &v.xyz[1];
}
