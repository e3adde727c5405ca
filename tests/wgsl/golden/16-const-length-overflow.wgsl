const a = length(vec2(3e200, 3e200));
