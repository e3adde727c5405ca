fn f() { let a = all(vec2(true)); let b = any(vec3(false)); let c = all(true); }
