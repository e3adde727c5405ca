const a = atanh(1.0);
