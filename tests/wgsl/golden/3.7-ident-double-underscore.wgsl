const __a = 1;
