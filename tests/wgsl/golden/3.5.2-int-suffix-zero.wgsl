const a = 0i;
const b = 0u;
