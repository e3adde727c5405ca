fn f() { let v = vec4<f32>(); let a: vec2<f32> = v.xy; let b: vec3<f32> = v.rgb; let c: f32 = v.w; let d = v.xxxx; }
