const_assert (-1i << 31u) == -2147483647i - 1i;
