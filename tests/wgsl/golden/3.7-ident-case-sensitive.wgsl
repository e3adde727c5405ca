const a = 1;
const A = 2;
