enable f16;
fn f() {
  let r = saturate(1i);
}
