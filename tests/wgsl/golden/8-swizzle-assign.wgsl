fn f() { var v = vec4<f32>(); v.x = 1.0; v.y += 2.0; }
