enable f16
const x = 1;
