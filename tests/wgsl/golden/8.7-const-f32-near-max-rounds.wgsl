const a = 3.4028234e38f + 1e31f;
const_assert a == 3.4028234e38f;
