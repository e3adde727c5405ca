const a = inverseSqrt(0.0);
