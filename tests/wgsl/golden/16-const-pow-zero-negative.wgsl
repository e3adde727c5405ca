const a = pow(0.0, -1.0);
