const m = -2147483647i - 1i;
const a = m % -1i;
