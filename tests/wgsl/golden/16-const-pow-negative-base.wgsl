const a = pow(-1.0, 0.5);
