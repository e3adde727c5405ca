enable f16;
fn f() {
  let r = select(vec2f(), vec2f(), vec3<bool>());
}
