fn f() { var a = array<i32, 2>(); let p = &a; let x = p[1]; p[0] = 2; }
