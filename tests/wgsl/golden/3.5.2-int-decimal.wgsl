const a = 0;
const b = 123;
const c = 2147483647i;
const d = 4294967295u;
const e = 9223372036854775807;
