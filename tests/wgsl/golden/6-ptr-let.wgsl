fn f() { var x = 1; let p = &x; let q: ptr<function, i32> = p; *q = 2; }
