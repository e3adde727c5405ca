const a = 2147483647i + 1i;
const_assert a == -2147483647i - 1i;
