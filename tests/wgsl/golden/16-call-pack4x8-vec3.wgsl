enable f16;
fn f() {
  let r = pack4x8snorm(vec3f());
}
