fn f() { if 1 { } }
