fn f() { let x = 1; let p = *x; }
