const a = cosh(1000.0);
