enable f16;
fn f() {
  let r = faceForward(1.0, 2.0, 3.0);
}
