fn f() { let m = mat3x2<f32>(); let v = m * vec3<f32>(); let w = vec2<f32>() * m; }
