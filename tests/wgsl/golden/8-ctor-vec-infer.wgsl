fn f() { let v = vec3(1, 2.0, 3); let w: vec3<f32> = v; }
