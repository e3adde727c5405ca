fn f() { let a: f32 = dot(vec3<f32>(1.0), vec3<f32>(2.0)); let b = dot(vec2(1), vec2(2)); }
