const a = sqrt(-1.0);
