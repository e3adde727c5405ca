fn f() { let m = mat2x2<f32>(1.0, 2.0, 3.0); }
