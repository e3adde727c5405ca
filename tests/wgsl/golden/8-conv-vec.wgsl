fn f() { let a = vec3<f32>(vec3<i32>(1)); }
