@group(0) @binding(0) var<storage> s: array<u32, 4>;
fn g(p: ptr<storage, array<u32, 4>>) -> u32 { return p[0]; }
@compute @workgroup_size(1) fn main() { _ = g(&s); }
