@ fn f() {}
