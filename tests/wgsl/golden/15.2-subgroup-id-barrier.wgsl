// subgroup_id is uniform within a subgroup only: a barrier under it is an error.
enable subgroups;
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sid : u32) {
  if sid == 0u { workgroupBarrier(); }
}
