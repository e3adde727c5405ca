fn f() { var m: mat2x2<f32>; let c = m[2]; }
