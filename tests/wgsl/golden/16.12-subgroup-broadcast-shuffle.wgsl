enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ssz: u32) {
  let x = out[sid];
  out[sid] = subgroupBroadcast(x, 1u) + subgroupBroadcastFirst(x) + subgroupShuffle(x, ssz - 1u - sid) + subgroupShuffleXor(x, 1u) + subgroupShuffleUp(x, 1u) + subgroupShuffleDown(x, 1u);
}
