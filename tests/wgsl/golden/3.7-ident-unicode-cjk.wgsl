const 日本語 = 1;
const Δ = 2;
