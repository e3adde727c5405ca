@compute @workgroup_size(8.0) fn main() {}
