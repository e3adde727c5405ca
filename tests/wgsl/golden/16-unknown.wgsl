fn f() { let a = foo(1); }
