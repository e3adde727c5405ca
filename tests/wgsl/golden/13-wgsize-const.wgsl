const X = 4;
@compute @workgroup_size(X, X * 2) fn main() {}
