fn f() { let a = max; }
