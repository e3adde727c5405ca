const_assert ;
