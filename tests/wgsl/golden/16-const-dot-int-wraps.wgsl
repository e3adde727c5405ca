const_assert dot(vec2u(4294967295u, 2u), vec2u(2u, 1u)) == 0u;
