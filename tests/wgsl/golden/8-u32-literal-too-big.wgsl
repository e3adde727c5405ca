fn f() { let x = 4294967296u; }
