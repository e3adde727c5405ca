enable f16;
fn f() {
  let f = 1.0f; let u = 2u; let r = ldexp(f, u);
}
