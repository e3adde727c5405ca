// Alias analysis: atomicLoad reads, atomicStore writes, the other atomic built-ins do both.
@group(0) @binding(0) var<storage, read_write> a : atomic<u32>;

fn callee(p : ptr<storage, atomic<u32>, read_write>) -> u32 {
  return atomicLoad(p) + atomicAdd(&a, 1u);
}

@compute @workgroup_size(1)
fn main() {
  _ = callee(&a);
}
