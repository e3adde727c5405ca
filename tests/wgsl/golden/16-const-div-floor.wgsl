const a = floor(2.7);
const_assert a == 2.0;
