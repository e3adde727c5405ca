@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn f(p: ptr<storage, array<u32>, read_write>) -> u32 { return arrayLength(p) + p[3]; }
@compute @workgroup_size(1)
fn main() { out[0] = f(&out); }
