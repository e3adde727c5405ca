const a = max(1, 2.5);
const_assert a == 2.5;
const b = min(3u, 1);
const_assert b == 1u;
