var<workgroup> c: atomic<i32>;
@compute @workgroup_size(1) fn main() { atomicAdd(&c, 1); let v = atomicLoad(&c); }
