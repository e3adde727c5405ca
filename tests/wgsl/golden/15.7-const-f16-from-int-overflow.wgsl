enable f16;
const a = f16(70000i);
