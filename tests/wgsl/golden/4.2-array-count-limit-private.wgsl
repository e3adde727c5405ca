var<private> a: array<f32, 100000>;
@compute @workgroup_size(1) fn main() { a[0] = 1.0; }
