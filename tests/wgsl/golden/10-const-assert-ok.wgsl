const a = 3;
const_assert a * 2 == 6;
