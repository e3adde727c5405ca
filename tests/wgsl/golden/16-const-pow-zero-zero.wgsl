const a = pow(0, 0);
