const a = ldexp(1.0, 1024);
