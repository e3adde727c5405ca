@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@compute @workgroup_size(1) fn f(@builtin(local_invocation_index) i: u32) { a[i] = a[i + 1u] + 1u; }
