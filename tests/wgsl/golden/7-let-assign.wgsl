fn f() { let x = 1; x = 2; }
