const a = pack2x16float(vec2(65519, 0));
