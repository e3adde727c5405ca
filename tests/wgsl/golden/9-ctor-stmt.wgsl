fn f() { vec2<f32>(); }
