@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: u32, @builtin(local_invocation_index) j: u32) {}
