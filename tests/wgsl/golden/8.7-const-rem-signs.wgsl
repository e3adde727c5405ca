const_assert -7 % 2 == -1;
const_assert 7 % -3 == 1;
const_assert -7.5 % 2.0 == -1.5;
const_assert 7.5f % -2.0f == 1.5f;
