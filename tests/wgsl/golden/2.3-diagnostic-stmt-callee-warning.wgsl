// a filter in the callee, around the builtin, sets the severity for every call path (Tint)
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
fn g() -> u32 { @diagnostic(warning, subgroup_uniformity) { return subgroupAdd(1u); } }
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  if (o[i] > 0u) { o[i] = g(); }
}
