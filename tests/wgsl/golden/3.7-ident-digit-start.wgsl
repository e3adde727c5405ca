const 1a = 1;
