fn f() { let v = vec2(1i, 2u); }
