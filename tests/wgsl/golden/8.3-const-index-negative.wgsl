const a = vec3(1, 2, 3)[-1];
