const a = clamp(5, 3, 1);
