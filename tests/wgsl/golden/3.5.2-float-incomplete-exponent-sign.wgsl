const x = 2e+;
