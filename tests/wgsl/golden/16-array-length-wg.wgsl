var<workgroup> w: array<f32, 4>;
@compute @workgroup_size(1) fn main() { let n = arrayLength(&w); }
