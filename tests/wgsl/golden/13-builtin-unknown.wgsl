@compute @workgroup_size(1) fn main(@builtin(foo) i: u32) {}
