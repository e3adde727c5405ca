const a = vec2i(2147483647, 1) + vec2i(1, 1);
const_assert a.x == -2147483647i - 1i;
