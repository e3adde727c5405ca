@compute @workgroup_size(1) fn f() -> @builtin(local_invocation_index) u32 { return 1u; }
