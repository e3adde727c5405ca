fn f() { var x = 1.0; x++; }
