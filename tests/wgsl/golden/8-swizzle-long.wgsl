fn f() { let v = vec2<f32>(); let a = v.xxxxx; }
