const loop = 1;
