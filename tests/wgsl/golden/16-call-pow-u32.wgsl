enable f16;
fn f() {
  let r = pow(1u, 2u);
}
