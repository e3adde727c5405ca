const a = fma(3e38f, 10.0f, 0.0f);
