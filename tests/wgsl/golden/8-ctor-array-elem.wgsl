fn f() { let a = array<i32, 2>(1, 2.5); }
