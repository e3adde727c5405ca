fn f() { let a = true + false; }
