fn f() { return; let x = 1; }
