const a = pack2x16float(vec2f(1e6, 0));
