fn f() { let v: vec3<f32> = vec3(1); let w = vec3<u32>(1); }
