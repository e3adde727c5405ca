// info severity on a statement: valid, reported as info
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  @diagnostic(info, subgroup_uniformity) { if (o[i] > 0u) { o[i] = subgroupAdd(1u); } }
}
