enable subgroups;
@compute @workgroup_size(1) fn f(@builtin(subgroup_size) s: u32, @builtin(subgroup_invocation_id) i: u32) {}
