fn f() { let x = 1i; let a = x << 32u; }
