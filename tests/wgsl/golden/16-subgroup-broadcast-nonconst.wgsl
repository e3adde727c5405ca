enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(subgroup_invocation_id) i: u32) { let y = subgroupBroadcast(1.0, i); }
