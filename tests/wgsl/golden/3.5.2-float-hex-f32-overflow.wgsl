const x = 0x1p128f;
