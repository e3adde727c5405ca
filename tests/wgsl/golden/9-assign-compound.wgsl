fn f() { var x = 1; x += 2; x *= 3; x <<= 1u; x &= 7; var v = vec2<f32>(); v *= 2.0; v += vec2(1.0); }
