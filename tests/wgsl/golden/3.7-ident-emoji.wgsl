const 😀 = 1;
