const a = -1e40 * 1e300;
