const _a = 1;
const a_b_ = 2;
const _1 = 3;
