enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(subgroup_invocation_id) i: u32) { let x = subgroupAdd(f32(i)); let b = subgroupBallot(true); let y = subgroupBroadcast(x, 0u); }
