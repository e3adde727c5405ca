fn f() { let a = array(1, 2, 3); let b: array<i32, 3> = a; }
