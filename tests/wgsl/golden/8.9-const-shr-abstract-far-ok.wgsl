const_assert (1 >> 64) == 0;
const_assert (-5 >> 70) == -1;
