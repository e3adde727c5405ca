const a = 1;
const bÿ = 2;
