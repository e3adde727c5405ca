const x = 0x1p1024;
