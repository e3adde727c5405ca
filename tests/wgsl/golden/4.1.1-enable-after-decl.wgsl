const x = 1;
enable f16;
