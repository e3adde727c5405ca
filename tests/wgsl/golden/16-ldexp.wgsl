fn f() { let x = ldexp(1.0, 2); }
