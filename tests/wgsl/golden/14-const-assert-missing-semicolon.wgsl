const_assert true
