fn f() { var a: array<i32>; }
