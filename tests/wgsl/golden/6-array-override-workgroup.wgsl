override N = 4;
var<workgroup> a: array<i32, N>;
@compute @workgroup_size(1) fn main() { a[0] = 1; }
