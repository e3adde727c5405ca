const a = clamp(vec2(5, -5), vec2(0), vec2(3));
const_assert all(a == vec2(3, 0));
