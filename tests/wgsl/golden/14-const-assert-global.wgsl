const_assert 1 < 2;
const_assert true;
