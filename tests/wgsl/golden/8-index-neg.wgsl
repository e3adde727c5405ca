fn f() { var a: array<i32, 3>; let b = a[-1]; }
