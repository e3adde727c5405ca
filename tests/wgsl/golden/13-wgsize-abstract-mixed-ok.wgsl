@compute @workgroup_size(8, 2u, 1) fn main() {}
