const a = dot(vec2f(3e38f, 1), vec2f(10, 1));
