enable f16;
fn f() {
  let r = abs(true);
}
