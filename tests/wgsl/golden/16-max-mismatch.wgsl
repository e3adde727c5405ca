fn f() { let a = max(1i, 2u); }
