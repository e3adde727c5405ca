fn f() { var v = 1; const c = v; }
