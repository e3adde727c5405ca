const a = mat2x2f(1, 2, 3, 4) * mat2x2f(3e38, 0, 0, 3e38);
