fn f() { let x: f32 = 1e39; }
