// @diagnostic(off, ...) on a for statement covers its header and body
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  @diagnostic(off, subgroup_uniformity) for (var k = 0u; k < o[i]; k += 1u) { o[k] = subgroupAdd(k); }
}
