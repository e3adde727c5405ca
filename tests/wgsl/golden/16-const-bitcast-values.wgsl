const_assert bitcast<u32>(1.0f) == 0x3f800000u;
const_assert bitcast<i32>(0xffffffffu) == -1i;
const_assert bitcast<u32>(-1) == 4294967295u;
