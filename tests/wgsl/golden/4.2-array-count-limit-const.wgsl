@compute @workgroup_size(1) fn main() { const a = array<f32, 65536>(); _ = a[0]; }
