fn f() { let a = true && 1; }
