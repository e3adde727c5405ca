const a = clamp(1.0, 1.0, 0.5);
