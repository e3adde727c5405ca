enable f16;
const_assert f16(1.00146484375) == 1.0009765625h;
const_assert f16(-1.0017) == -1.0009765625h;
const_assert f16(1e-7) == 5.960464477539063e-8h;
