@group(0) @binding(0) var<storage, read_write> s: array<i32>;
fn g(p: ptr<storage, array<i32>, read_write>) { p[0] = 1; }
@compute @workgroup_size(1) fn main() { g(&s); }
