const a = exp(100.0f);
