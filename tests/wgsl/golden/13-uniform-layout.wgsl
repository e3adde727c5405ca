struct S { a: f32, b: array<f32, 2> }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn main() { _ = u.a; }
