// Bitonic sort of 256 random u32 keys in workgroup memory (one workgroup of 128 invocations,
// two keys each), with workgroupBarrier between the compare-exchange steps.
// @dispatch 1
// @bind 0:0 storage rw 1024 init=rand:u32:221
// @expect-py 0:0 u32 sorted(inp(0,0))
var<workgroup> keys: array<u32, 256>;
@group(0) @binding(0) var<storage, read_write> data: array<u32, 256>;

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) l: u32) {
  keys[l] = data[l];
  keys[l + 128u] = data[l + 128u];
  workgroupBarrier();
  for (var size = 2u; size <= 256u; size <<= 1u) {
    for (var stride = size >> 1u; stride > 0u; stride >>= 1u) {
      let i = 2u * l - (l & (stride - 1u));     // lower index of this invocation's pair
      let j = i + stride;
      let up = (i & size) == 0u;
      let a = keys[i];
      let b = keys[j];
      if ((a > b) == up) { keys[i] = b; keys[j] = a; }
      workgroupBarrier();
    }
  }
  data[l] = keys[l];
  data[l + 128u] = keys[l + 128u];
}
