const a = 3 << 62;
