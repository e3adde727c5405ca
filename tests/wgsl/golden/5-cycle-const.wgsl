const a = b + 1;
const b = a;
