const a = 1f;
const b = 0f;
const c = 1.5f;
const d = .5e1f;
const e = 3.4028234e38f;
