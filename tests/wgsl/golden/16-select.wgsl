fn f() { let a = select(1, 2, true); let b = select(vec2(1.0), vec2(2.0), vec2(true, false)); }
