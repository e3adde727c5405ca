@group(0) @binding(0) var<storage, read_write> s : array<u32>;
@compute @workgroup_size(128) fn main(@builtin(num_subgroups) n : u32) { s[0] = n; }
