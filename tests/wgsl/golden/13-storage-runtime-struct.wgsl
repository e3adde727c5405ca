struct S { n: u32, data: array<vec4<f32>> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.data[s.n] = vec4(1.0); }
