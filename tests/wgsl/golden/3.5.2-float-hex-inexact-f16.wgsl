enable f16;
const x = 0x1.001p0h;
