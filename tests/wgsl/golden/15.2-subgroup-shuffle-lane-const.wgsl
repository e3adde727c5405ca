enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main() { o[0] = subgroupShuffle(1u, 200u); }
