enable f16;
fn f() {
  let r = refract(vec2f(), vec2f(), vec2f());
}
