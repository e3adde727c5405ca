const a = degrees(1e37f);
