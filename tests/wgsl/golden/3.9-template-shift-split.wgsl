const a = array<vec2<u32>, 2>(vec2<u32>(1, 2), vec2<u32>(3, 4));
