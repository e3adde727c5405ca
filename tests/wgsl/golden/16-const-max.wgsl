const a = max(3, 4);
const_assert a == 4;
