fn f() { let a = 1 + 2.5; let b: f32 = a; }
