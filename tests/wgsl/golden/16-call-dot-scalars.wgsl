enable f16;
fn f() {
  let r = dot(1.0, 2.0);
}
