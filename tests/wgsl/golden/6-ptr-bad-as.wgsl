fn f() { var x = 1; let p: ptr<private, i32> = &x; }
