fn f() { let v = vec3<f32>(1.0) + vec2<f32>(1.0); }
