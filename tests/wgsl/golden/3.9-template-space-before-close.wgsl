const a = vec3<f32 >(1.0);
