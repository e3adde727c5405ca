const_assert 1;
