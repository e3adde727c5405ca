const a = 1i / 0i;
