// the filter covers its statement only, not the code after it
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  @diagnostic(off, subgroup_uniformity) if (o[i] > 0u) { o[i] = subgroupAdd(1u); }
  if (o[i] > 1u) { o[i] = subgroupMax(2u); }
}
