override X: u32 = 64;
@compute @workgroup_size(X) fn main() {}
