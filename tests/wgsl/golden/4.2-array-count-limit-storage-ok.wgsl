@group(0) @binding(0) var<storage, read_write> a: array<f32, 65536>;
@compute @workgroup_size(1) fn main() { a[0] = 1.0; }
