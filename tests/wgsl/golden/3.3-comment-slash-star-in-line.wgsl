// /* not a block
const a = 1;
