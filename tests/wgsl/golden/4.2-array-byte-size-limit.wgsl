struct S { a: array<vec4f, 300000000> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.a[0] = vec4f(); }
