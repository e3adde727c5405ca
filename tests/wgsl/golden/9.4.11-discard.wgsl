@fragment
fn f() {
  discard;
}
