// subgroupBroadcastFirst, subgroupBroadcast(x, 0) and subgroupShuffle(x, 0) agree when every
// invocation is active; subgroupShuffleXor(id, 1) gives the neighbour's id (subgroup sizes are
// even); subgroupMin of the workgroup-wide index is the first member's.
// @requires subgroups
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [1] * 64
enable subgroups;
@group(0) @binding(0) var<storage, read_write> ok: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(subgroup_invocation_id) id: u32) {
  let x = l * 7u + 3u;
  let f = subgroupBroadcastFirst(x);
  let b = subgroupBroadcast(x, 0u);
  let s = subgroupShuffle(x, 0u);
  let n = subgroupShuffleXor(id, 1u);
  let m = subgroupMin(x);
  ok[l] = u32(f == b && b == s && n == (id ^ 1u) && m <= x);
}
