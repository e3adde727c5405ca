fn f() { let v = vec4<f32>(); let a = v.xg; }
