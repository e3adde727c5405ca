const a = 3.0e38f * 2.0f;
