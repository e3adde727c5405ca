@compute @workgroup_size(1) fn main() -> i32 { return 1; }
