fn f() { let v = vec3<f32>(1.0) * 2.0; let w = 2 + vec2<i32>(1); }
