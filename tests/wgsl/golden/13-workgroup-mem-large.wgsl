var<workgroup> t: array<f32, 8192>;
@compute @workgroup_size(1) fn main() { t[0] = 0.0; }
