fn f() { let x: u32 = -1; }
