enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(subgroup_size) sz: u32) {
  if (sz == 32u) { workgroupBarrier(); }
}
