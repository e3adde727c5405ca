enable f16;
fn f() {
  let r = atan2(1i, 2);
}
