const m = mat2x2(1.0, 2.0, 3.0, 4.0);
const_assert m[1][0] == 3.0;
