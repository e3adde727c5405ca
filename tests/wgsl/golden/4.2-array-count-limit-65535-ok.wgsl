var<private> a: array<array<f32, 2>, 65535>;
@compute @workgroup_size(1) fn main() { a[0][0] = 1.0; }
