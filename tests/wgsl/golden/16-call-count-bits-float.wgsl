enable f16;
fn f() {
  let r = countOneBits(1.0);
}
