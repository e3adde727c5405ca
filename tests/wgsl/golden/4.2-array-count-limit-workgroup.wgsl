var<workgroup> a: array<f32, 65536>;
@compute @workgroup_size(1) fn main() { }
