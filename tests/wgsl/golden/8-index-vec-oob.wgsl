fn f() { let v = vec2<f32>(); let y = v[2]; }
