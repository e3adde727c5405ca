fn f() { let a = clamp(vec3<f32>(1.0), vec3(0.0), vec3(1.0)); }
