enable f16;
fn f() {
  let r = transpose(vec2f());
}
