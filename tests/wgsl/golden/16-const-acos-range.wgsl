const a = acos(2.0);
