const a = ldexp(1.0f, 128);
