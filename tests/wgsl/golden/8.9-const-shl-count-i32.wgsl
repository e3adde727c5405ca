const a = 1i << 32u;
