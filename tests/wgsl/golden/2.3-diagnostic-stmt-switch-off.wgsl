// @diagnostic(off, ...) on a switch body and on a case body
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  switch (o[i]) @diagnostic(off, subgroup_uniformity) {
    case 0u: { o[i] = subgroupAdd(1u); }
    default: { }
  }
  switch (o[i]) {
    case 0u: @diagnostic(off, subgroup_uniformity) { o[i] = subgroupAdd(1u); }
    default: { }
  }
}
