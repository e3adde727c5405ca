@compute @workgroup_size(1) fn f(@builtin(subgroup_size) s: u32) {}
