fn f() { let a = bitcast<f32>(1u); let b = bitcast<vec2<u32>>(vec2<f32>()); }
