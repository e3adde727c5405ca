@group(0) @binding(0) var<storage> s: array<f32>;
@compute @workgroup_size(1) fn main() { let n: u32 = arrayLength(&s); }
