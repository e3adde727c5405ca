enable f16;
fn f() {
  let r = quantizeToF16(1.0h);
}
