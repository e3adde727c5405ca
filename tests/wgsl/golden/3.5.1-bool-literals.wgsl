const t = true;
const f = false;
const_assert t != f;
