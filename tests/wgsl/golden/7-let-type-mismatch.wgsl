fn f() { let x: f32 = 1i; }
