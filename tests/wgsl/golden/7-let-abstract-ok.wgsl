fn f() { let x: f32 = 1; let y: u32 = 2; let z: f16 = 1.0; }
