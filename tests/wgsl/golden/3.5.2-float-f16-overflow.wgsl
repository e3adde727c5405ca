enable f16;
const x = 65520.0h;
