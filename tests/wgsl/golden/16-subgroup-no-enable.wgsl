@compute @workgroup_size(64) fn main() { let x = subgroupAdd(1.0); }
