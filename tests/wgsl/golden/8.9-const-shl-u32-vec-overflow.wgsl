const a = vec2u(1, 2) << vec2u(31, 31);
