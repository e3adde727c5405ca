const_assert (-8i >> 1u) == -4i;
const_assert (0x80000000u >> 31u) == 1u;
