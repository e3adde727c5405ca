const a = 1 << -1;
