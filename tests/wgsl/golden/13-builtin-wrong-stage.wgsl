@compute @workgroup_size(1) fn main(@builtin(vertex_index) i: u32) {}
