override X: u32 = 64;
@compute @workgroup_size(X / 2u, 1u) fn main() {}
