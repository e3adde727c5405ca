fn f() { return 1; }
