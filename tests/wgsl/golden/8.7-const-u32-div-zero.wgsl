const a = 7u / 0u;
