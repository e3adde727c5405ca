const a = 1e308 * 10.0;
