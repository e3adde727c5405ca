enable f16;
fn f() {
  let r = max(1, 2, 3);
}
