const_assert ldexp(0.5f, 128) == 1.7014118346046923e38f;
const_assert ldexp(1.0, 1023) == 8.98846567431158e307;
