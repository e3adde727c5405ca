const x = 1
const y = 2;
