fn f() { var v = 1; v(); }
