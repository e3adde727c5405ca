fn f() { foo(); }
