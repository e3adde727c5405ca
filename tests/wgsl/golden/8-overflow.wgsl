const a = 2147483647i + 1i;
