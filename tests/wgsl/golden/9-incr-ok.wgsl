fn f() { var x = 1u; x++; x--; var a: array<i32, 2>; a[0]++; }
