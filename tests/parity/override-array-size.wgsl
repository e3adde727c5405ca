// A workgroup array sized by an override expression; every invocation fills one slot and
// reads a neighbour after a barrier.
// @dispatch 1
// @override n=48
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [((l + 1) % 48) * 7 for l in range(48)] + [0] * 16
override n: u32 = 16;
var<workgroup> tmp: array<u32, n>;
@group(0) @binding(0) var<storage, read_write> r: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {
  if (l < n) { tmp[l] = l * 7u; }
  workgroupBarrier();
  if (l < n) { r[l] = tmp[(l + 1u) % n]; }
}
