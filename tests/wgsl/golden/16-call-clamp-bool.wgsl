enable f16;
fn f() {
  let r = clamp(1u, 2u, true);
}
