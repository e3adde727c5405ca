const_assert quantizeToF16(1.00146484375f) == 1.0009765625f;
const_assert quantizeToF16(1.00341796875f) == 1.0029296875f;
const_assert quantizeToF16(65504.0f) == 65504.0f;
