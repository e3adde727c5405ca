fn f() { let a = 1 << 2 + 1; }
