fn f() {
  let v = vec2(1, 2);
  let x = v.1;
}
