const a = 1u << 32u;
