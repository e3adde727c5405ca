const_assert all((mat2x2(1.0, 2, 3, 4) * vec2(5.0, 6)) == vec2(23.0, 34));
const_assert all((vec2(5.0, 6) * mat2x2(1.0, 2, 3, 4)) == vec2(17.0, 39));
const_assert all((mat2x2(1.0, 2, 3, 4) * mat2x2(5.0, 6, 7, 8))[1] == vec2(31.0, 46));
