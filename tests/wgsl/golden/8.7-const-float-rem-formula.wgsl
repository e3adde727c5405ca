const_assert 1e10f % 3.0f == 0.0f;
const_assert 5.1 % 1.7 == 5.1 - 1.7 * trunc(5.1 / 1.7);
const_assert -7.5 % 2.0 == -1.5;
