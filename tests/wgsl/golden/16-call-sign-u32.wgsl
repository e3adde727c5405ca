enable f16;
fn f() {
  let r = sign(1u);
}
