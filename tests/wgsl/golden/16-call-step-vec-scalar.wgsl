enable f16;
fn f() {
  let r = step(vec2f(), 1.0f);
}
