fn f() { var x = 1; x += 2.5; }
