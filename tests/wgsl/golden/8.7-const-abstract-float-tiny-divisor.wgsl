const a = 0.1 / 1e-320;
