fn f() { let x = -2147483648; let y: i32 = x; }
