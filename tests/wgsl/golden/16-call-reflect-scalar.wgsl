enable f16;
fn f() {
  let r = reflect(1.0, 2.0);
}
