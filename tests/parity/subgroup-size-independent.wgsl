// Subgroup operations whose results do not depend on the subgroup size (lavapipe has 8,
// llvmpipe/Dawn other sizes): subgroupAdd(1) = subgroup_size, the ballot's bit count =
// subgroup_size, exclusive/inclusive prefix sums of 1 = the invocation id (+1), subgroupMax of
// the id = size - 1, subgroupAll/Any, subgroupElect once per subgroup.  Each invocation writes 1
// per property that holds; the subgroup size itself is only recorded (not compared).
// @requires subgroups
// @dispatch 2
// @bind 0:0 storage rw 2048
// @bind 0:1 storage rw 8
// @expect-py 0:0 u32 [1] * 512
// @assert-py out(0,1)[0] == 128 and out(0,1)[1] >= 1
// @compare 0:1 exact words=0
enable subgroups;
@group(0) @binding(0) var<storage, read_write> ok: array<array<u32, 8>, 64>;
@group(0) @binding(1) var<storage, read_write> count: array<atomic<u32>, 2>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u,
        @builtin(subgroup_size) sz: u32, @builtin(subgroup_invocation_id) id: u32) {
  let slot = w.x * 32u + l / 2u;
  let lane = (l % 2u) * 4u;
  let ballot = subgroupBallot(true);
  let bits = countOneBits(ballot.x) + countOneBits(ballot.y) + countOneBits(ballot.z) + countOneBits(ballot.w);
  let a = u32(subgroupAdd(1u) == sz) + u32(bits == sz) * 2u;
  let b = u32(subgroupExclusiveAdd(1u) == id) + u32(subgroupInclusiveAdd(1u) == id + 1u) * 2u;
  let c = u32(subgroupMax(id) == sz - 1u) + u32(subgroupAll(true)) * 2u + u32(subgroupAny(id == 0u)) * 4u;
  if (subgroupElect()) {
    atomicAdd(&count[0], sz);          // the sizes of all subgroups add up to the invocations
    atomicMax(&count[1], sz);
  }
  ok[slot][lane] = u32(a == 3u);
  ok[slot][lane + 1u] = u32(b == 3u);
  ok[slot][lane + 2u] = u32(c == 7u);
  ok[slot][lane + 3u] = u32(id < sz);
}
