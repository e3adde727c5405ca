fn f() { var m: mat3x3<f32>; let c: vec3<f32> = m[2]; m[1][2] = 1.0; }
