const a = distance(vec2f(3e38f, 0), vec2f(-3e38f, 0));
