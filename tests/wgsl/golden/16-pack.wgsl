fn f() { let a = pack4x8snorm(vec4(1.0)); let b = unpack2x16float(a); let c = pack2x16float(b); }
