const a = asin(-1.5f);
