fn f() { let a = 1.0 & 2.0; }
