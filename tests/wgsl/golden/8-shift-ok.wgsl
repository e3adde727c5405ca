fn f() { let x = 1i; let a = x << 3u; let b = x >> 31; }
