// a filter on the caller does not reach the builtin inside the callee (Tint)
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
fn g() -> u32 { { return subgroupAdd(1u); } }
@diagnostic(warning, subgroup_uniformity) @compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  if (o[i] > 0u) { o[i] = g(); }
}
