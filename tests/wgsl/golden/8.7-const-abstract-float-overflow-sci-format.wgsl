const a = -1e41 * 1e300;
