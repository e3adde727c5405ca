// subgroup_id and num_subgroups (language feature subgroup_id): compute inputs, SPIR-V SubgroupId and
// NumSubgroups; subgroup_id is uniform within its subgroup (subgroupAdd under `if sid == 0u`).
enable subgroups;
@group(0) @binding(0) var<storage, read_write> s : array<u32>;
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sid : u32, @builtin(num_subgroups) ns : u32) {
  if ns == 4u { workgroupBarrier(); }
  if sid == 0u { s[0] = subgroupAdd(1u); }
  s[sid + 1u] = ns;
}
