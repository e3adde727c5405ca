const x = 0x1.000001p0f;
