const a = 3e38f / 0.1f;
