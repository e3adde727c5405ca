const a = 1.;
const b = .5;
const c = 1.5;
const d = 1e3;
const e = 1.5e-3;
const f = .5E+2;
const g = 00.25;
