fn f() { let a = true & false; let b = vec2(true) | vec2(false); }
