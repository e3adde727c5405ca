enable f16;
fn f() {
  let i = 1i; let r = extractBits(i, i, 2u);
}
