enable f16;
fn f() {
  let r = mix(1u, 30u, 3u);
}
