const a = 0xffffffffu << 1u;
