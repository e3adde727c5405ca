var<workgroup> c: i32;
@compute @workgroup_size(1) fn main() { atomicAdd(&c, 1); }
