alias A = array<f32, 70000>;
var<private> a: A;
@compute @workgroup_size(1) fn main() { a[0] = 1.0; }
