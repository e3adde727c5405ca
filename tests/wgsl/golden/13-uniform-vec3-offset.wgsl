struct S { a: vec3<f32>, b: f32, c: vec2<f32> }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn main() { _ = u.a; }
