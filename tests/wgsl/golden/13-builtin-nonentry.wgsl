fn g(@builtin(local_invocation_index) i: u32) {}
