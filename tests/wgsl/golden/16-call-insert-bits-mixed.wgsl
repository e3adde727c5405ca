enable f16;
fn f() {
  let r = insertBits(1u, 2i, 0u, 1u);
}
