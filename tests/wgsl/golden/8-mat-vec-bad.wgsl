fn f() { let m = mat3x2<f32>(); let v = m * vec2<f32>(); }
