enable f16;
fn f() {
  let r = fma(1i, 2i, 3i);
}
