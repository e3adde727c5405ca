enable f16;
fn f() {
  let r = clamp(-1i, 4u, 4u);
}
