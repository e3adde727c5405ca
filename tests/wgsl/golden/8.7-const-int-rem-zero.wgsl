const a = 5 % 0;
