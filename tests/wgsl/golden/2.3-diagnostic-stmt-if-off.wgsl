// @diagnostic(off, ...) on an if statement covers its condition and branches
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  @diagnostic(off, subgroup_uniformity) if (o[i] > 0u) { o[i] = subgroupAdd(1u); } else { o[i] = subgroupMax(2u); }
}
