fn f() { f(); }
