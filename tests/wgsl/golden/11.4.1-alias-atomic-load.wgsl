// Alias analysis: two atomicLoads of one variable through a parameter and directly are fine.
var<workgroup> a : atomic<u32>;
var<workgroup> b : atomic<u32>;

fn callee(p : ptr<workgroup, atomic<u32>>) -> u32 {
  atomicStore(&b, 2u);
  return atomicLoad(p) + atomicLoad(&a);
}

@compute @workgroup_size(1)
fn main() {
  _ = callee(&a);
  atomicStore(&a, callee(&a));
}
