fn f() { let m = mat2x2<f32>(vec2(1.0), vec2(2.0)); let n = mat2x2(1.0, 2.0, 3.0, 4.0); let o = mat2x2f(m); }
