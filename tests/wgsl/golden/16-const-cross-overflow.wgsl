const a = cross(vec3f(3e38f, 3e38f, 1), vec3f(10, 10, 1));
