fn f() { _ = max(1, 2); }
