const a = 0.5f / 1e-40f;
