fn f() { max(1, 2); }
