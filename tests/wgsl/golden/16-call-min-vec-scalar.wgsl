enable f16;
fn f() {
  let v = vec3f(); let r = min(v, 1.0f);
}
