@group(0) @binding(0) var<storage> s: array<i32>;
@compute @workgroup_size(1) fn f() { _ = s; }
