fn f() { let a = sin(1i); }
