// Pointer types in aliases that are valid (a runtime-sized array in workgroup memory included,
// as Tint allows it in a pointer type).
alias A = ptr<private, i32>;
alias B = ptr<storage, array<i32>, read_write>;
alias C = ptr<uniform, array<vec4f, 4>>;
alias D = ptr<workgroup, array<atomic<u32>>>;
alias E = ptr<storage, atomic<u32>, read_write>;
