const_assert 65536u * 65536u == 0u;
