fn f() { continue; }
