fn f() { var v = vec3<f32>(); v += 1.0; v *= 2; v /= vec3(2.0); }
