fn f() { let a = -1u; }
