const x = 1.5ff;
