// More size-independent subgroup results: subgroupAnd/Or/Xor of per-lane bits, subgroupMul of
// ones, subgroupShuffleDown/Up by 1 against the neighbour's id (lanes at the subgroup's ends
// excluded), subgroupExclusiveMul of 1 and subgroupInclusiveAdd of the id (triangular numbers).
// @requires subgroups
// @dispatch 1
// @bind 0:0 storage rw 256
// @expect-py 0:0 u32 [1] * 64
enable subgroups;
@group(0) @binding(0) var<storage, read_write> ok: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(subgroup_invocation_id) id: u32,
        @builtin(subgroup_size) sz: u32) {
  let bit = 1u << (id % 32u);
  let all_bits = select((1u << sz) - 1u, 0xFFFFFFFFu, sz >= 32u);
  let or_ok = subgroupOr(bit) == all_bits;
  let and_ok = subgroupAnd(bit | 0x80000000u) == select(0x80000000u, 0x80000000u & all_bits, sz == 1u);
  let xor_ok = subgroupXor(1u) == (sz & 1u);
  let mul_ok = (subgroupMul(1u) == 1u) & (subgroupExclusiveMul(1u) == 1u);   // & : both always run
  let down = subgroupShuffleDown(id, 1u);
  let up = subgroupShuffleUp(id, 1u);
  let shuf_ok = ((id + 1u >= sz) | (down == id + 1u)) & ((id == 0u) | (up == id - 1u));
  let tri_ok = subgroupInclusiveAdd(id) == id * (id + 1u) / 2u;
  ok[l] = u32(or_ok && and_ok && xor_ok && mul_ok && shuf_ok && tri_ok);
}
