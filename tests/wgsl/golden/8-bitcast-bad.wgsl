fn f() { let a = bitcast<f32>(vec2<u32>()); }
