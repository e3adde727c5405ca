// @diagnostic(off, ...) on a loop body (and on a while statement) covers the body and continuing
enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  loop @diagnostic(off, subgroup_uniformity) {
    if (k >= o[i]) { break; }
    o[k] = subgroupAdd(k);
    continuing { k = k + subgroupMin(1u); }
  }
  @diagnostic(off, subgroup_uniformity) while (k < o[i]) { k = k + subgroupAdd(1u); }
}
