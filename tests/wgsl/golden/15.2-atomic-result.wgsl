var<workgroup> a: atomic<u32>;
@compute @workgroup_size(64) fn main() {
  let v = atomicAdd(&a, 1u);
  if (v == 0u) { workgroupBarrier(); }
}
