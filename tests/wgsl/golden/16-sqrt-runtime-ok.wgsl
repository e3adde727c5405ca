fn f() { var x = -1.0; let a = sqrt(x); }
