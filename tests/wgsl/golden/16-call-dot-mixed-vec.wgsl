enable f16;
fn f() {
  let r = dot(vec2f(1, 2), vec2i(3, 4));
}
