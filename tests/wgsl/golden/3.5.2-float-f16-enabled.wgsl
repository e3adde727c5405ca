enable f16;
const a = 1h;
const b = 0.5h;
const c = 65504.0h;
const d = 0x1p-24h;
