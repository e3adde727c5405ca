const_assert a == 3;
const a = 3;
