const a = 0x40000000i << 1u;
