const a = log2(-2.0f);
