enable f16;
fn f() {
  let r = select(1i, 2u, true);
}
