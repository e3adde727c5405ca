const_assert 1 > 2;
