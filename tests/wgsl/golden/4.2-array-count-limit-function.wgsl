@compute @workgroup_size(1) fn main() { var a: array<f32, 65536>; a[0] = 1.0; }
