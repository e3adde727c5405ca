@compute @workgroup_size(8i, 2u) fn main() {}
