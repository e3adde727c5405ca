fn f() { let a = max(1, 2, 3); }
