struct S { a: array<f32, 65536> }
var<private> s: S;
@compute @workgroup_size(1) fn main() { s.a[0] = 1.0; }
