enable f16;
fn f() {
  let r = all(1.0);
}
