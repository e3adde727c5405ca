const x = 1.0e;
