enable f16;
fn f() {
  let r = dot4U8Packed(1.0, 2u);
}
