fn f() { let i32 = 1; let y = i32 + 1; }
