fn f() { let a = max(1, 2.5); let b: f32 = a; }
