const a = sinh(100.0f);
