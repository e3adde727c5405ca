const a = 0u - 1u;
const_assert a == 4294967295u;
