fn f() { let r = frexp(1.5); let m = modf(vec2(1.5)); let e: i32 = r.exp; let w: vec2<f32> = m.whole; }
