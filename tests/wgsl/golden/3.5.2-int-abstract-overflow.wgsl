const ok = 1;
const big = 9223372036854775808;
