// ... but not uniform enough for a barrier after the call.
enable subgroups;
fn twice(sid : u32) -> u32 { return sid * 2u; }
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sid : u32) {
  if twice(sid) == 2u { workgroupBarrier(); }
}
