const a = log(0.0);
