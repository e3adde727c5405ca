fn f() { let a: vec3<bool> = vec3(1) < vec3(2); }
