enable f16;
fn f() {
  let r = length(vec3i(1));
}
