const a = 1 << 70;
