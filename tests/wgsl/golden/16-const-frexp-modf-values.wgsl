const_assert frexp(8.0).fract == 0.5;
const_assert frexp(8.0).exp == 4;
const_assert frexp(1.5f).exp == 1i;
const_assert modf(-2.5).fract == -0.5;
const_assert modf(-2.5f).whole == -2.0f;
