const a = ldexp(0.5f, 129);
