enable f16;
fn f() {
  let r = unpack2x16float(-1i);
}
