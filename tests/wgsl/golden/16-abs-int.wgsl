fn f() { let a = abs(-1); let b = abs(vec2<i32>(-1)); let c = abs(2u); }
