@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() { out[2] = dot4U8Packed(out[0], out[1]); }
