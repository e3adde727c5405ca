enable f16;
const a = 60000h * 2.0h;
