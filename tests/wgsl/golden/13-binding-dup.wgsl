@group(0) @binding(0) var<storage> a: i32;
@group(0) @binding(0) var<storage> b: i32;
@compute @workgroup_size(1) fn main() { _ = a; _ = b; }
