const_assert u32(-1i) == 4294967295u;
const_assert i32(4294967295u) == -1i;
