@compute @workgroup_size(1) fn main() { let a = array<f32, 65536>(); _ = a; }
