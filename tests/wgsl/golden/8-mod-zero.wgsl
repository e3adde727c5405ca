fn f() { let a = 5i % 0i; }
