const_assert i32(3e10f) == 2147483520i;
const_assert u32(-1.5f) == 0u;
const_assert i32(3e9f) == 2147483520i;
const_assert u32(1e20f) == 4294967040u;
const_assert i32(1e10) == 2147483647i;
const_assert i32(-1e10) == -2147483647i - 1i;
