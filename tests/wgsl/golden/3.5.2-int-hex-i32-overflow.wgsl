const x = 0x80000000i;
