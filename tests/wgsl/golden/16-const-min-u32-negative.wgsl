const a = min(7u, -3);
