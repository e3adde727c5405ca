const a = 1e-400;
const b = 0x1p-1100;
const_assert a == 0.0;
