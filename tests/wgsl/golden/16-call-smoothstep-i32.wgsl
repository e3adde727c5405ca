enable f16;
fn f() {
  let r = smoothstep(1i, 2, 3);
}
