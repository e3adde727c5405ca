const m = -9223372036854775807 - 1;
const a = m / -1;
