fn f(i: u32) -> f32 { var v = vec4<f32>(); v[i] = 1.0; return v[i]; }
