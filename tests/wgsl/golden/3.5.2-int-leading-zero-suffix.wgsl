const x = 00u;
