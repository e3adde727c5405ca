@compute @workgroup_size(1) fn main() { _ = fwidthFine(vec2f(1.0)); }
