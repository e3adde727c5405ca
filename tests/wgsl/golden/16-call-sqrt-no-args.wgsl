enable f16;
fn f() {
  let r = sqrt();
}
