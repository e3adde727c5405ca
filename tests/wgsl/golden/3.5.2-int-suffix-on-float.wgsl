const x = 1.5i;
