const a = exp(1000.0);
