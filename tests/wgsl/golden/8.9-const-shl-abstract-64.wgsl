const a = 1 << 64;
