fn f() { var x = 1; let p = &x; let y = *p + 1; *p = y; }
