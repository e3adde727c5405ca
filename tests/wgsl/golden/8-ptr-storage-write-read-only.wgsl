@group(0) @binding(0) var<storage> s: array<u32, 4>;
fn g(p: ptr<storage, array<u32, 4>, read_write>) { p[0] = 1u; }
@compute @workgroup_size(1) fn main() { g(&s); }
