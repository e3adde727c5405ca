enable f16;
fn f() {
  let r = frexp(vec2u(1));
}
