enable f16;
fn f() {
  let r = pack2x16float(vec2h());
}
