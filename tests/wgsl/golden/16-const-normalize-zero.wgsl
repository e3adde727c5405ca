const a = normalize(vec2f(0));
