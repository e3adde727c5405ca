const a = 1i << 31u;
