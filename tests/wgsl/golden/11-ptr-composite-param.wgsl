fn g(p: ptr<function, vec4<f32>>) -> f32 { return p.x + (*p).y + p[2]; }
