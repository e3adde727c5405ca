fn f() { let a = 1i + 1u; }
