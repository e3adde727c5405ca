enable f16;
const a = 1h + 65504h;
