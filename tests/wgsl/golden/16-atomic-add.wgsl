@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
@compute @workgroup_size(1) fn main() { let old = atomicAdd(&c, 1u); atomicStore(&c, 0u); }
