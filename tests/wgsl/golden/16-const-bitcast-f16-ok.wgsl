enable f16;
const_assert all(bitcast<vec2<f16>>(0x40003c00u) == vec2h(1, 2));
