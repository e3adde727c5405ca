const_assert pack2x16float(vec2(1.0, -2)) == 0xc0003c00u;
const_assert pack2x16float(vec2(1.0017, 0)) == 0x3c01u;
const_assert pack4xI8Clamp(vec4(-1, 2, 300, -129)) == 0x807f02ffu;
const_assert pack4xU8Clamp(vec4u(1, 2, 300, 255)) == 0xffff0201u;
const_assert pack2x16snorm(vec2(-1.0, 1)) == 0x7fff8001u;
const_assert all(unpack4xI8(0x807f02ffu) == vec4i(-1, 2, 127, -128));
const_assert dot4I8Packed(0xffffffffu, 0x01010101u) == -4i;
const_assert dot4U8Packed(0x01020304u, 0x01010101u) == 10u;
