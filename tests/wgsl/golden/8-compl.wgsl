fn f() { let a = ~1u; let b = ~vec2<i32>(1); }
