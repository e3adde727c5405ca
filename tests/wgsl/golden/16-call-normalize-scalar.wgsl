enable f16;
fn f() {
  let r = normalize(2.0);
}
