const a = 0x0;
const b = 0XaBcD;
const c = 0x7fffffffi;
const d = 0xFFFFFFFFu;
const e = 0x7FFFFFFFFFFFFFFF;
