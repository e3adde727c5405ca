const a = 0x1p4;
const b = 0x1.8p1;
const c = 0x.8p0;
const d = 0X1.P-2;
const e = 0x1.5;
const f = 0x1p4f;
const g = 0x1.fffffep127f;
