enable f16;
fn f() {
  let r = modf(3i);
}
