fn f() { var x = 1; let x = 2; }
