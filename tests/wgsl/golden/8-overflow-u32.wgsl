const a = 0u - 1u;
