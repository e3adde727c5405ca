enable f16;
fn f() {
  let r = any(vec2i());
}
