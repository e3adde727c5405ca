const a = 1 << 31u;
