fn f() { break; }
