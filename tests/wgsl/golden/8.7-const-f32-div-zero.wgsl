const a = 1.0f / 0.0f;
