const a = mix(-3e38f, 3e38f, 2.0f);
