enable f16;
fn f() {
  let r = cross(vec2(1.0, 2), vec2(3.0, 4));
}
