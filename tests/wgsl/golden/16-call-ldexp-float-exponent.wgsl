enable f16;
fn f() {
  let r = ldexp(10.0, 40.0);
}
