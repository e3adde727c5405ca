enable f16;
const a = bitcast<vec2<f16>>(0x7c003c00u);
