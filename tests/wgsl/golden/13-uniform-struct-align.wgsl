struct I { a: f32 }
struct S { a: f32, b: I }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn main() { _ = u.a; }
