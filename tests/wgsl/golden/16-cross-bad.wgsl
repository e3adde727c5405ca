fn f() { let a = cross(vec2<f32>(1.0), vec2<f32>(2.0)); }
