enable f16;
fn f() {
  let r = determinant(mat2x3f());
}
