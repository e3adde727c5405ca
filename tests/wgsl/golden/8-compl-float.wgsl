fn f() { let a = ~1.0; }
