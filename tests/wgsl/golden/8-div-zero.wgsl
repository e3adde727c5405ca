const a = 1 / 0;
