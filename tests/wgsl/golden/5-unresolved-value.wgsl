fn f() { let y = z; }
