var<workgroup> c: atomic<u32>;
@compute @workgroup_size(1) fn main() { let r = atomicCompareExchangeWeak(&c, 0u, 1u); if r.exchanged { _ = r.old_value; } }
