const asm = 1;
