// i32 atomics with negative values (atomicAdd/Sub/Min/Max on atomic<i32>) in storage, and
// atomicCompareExchangeWeak on a workgroup atomic building a fixed total.
// @dispatch 2
// @bind 0:0 storage rw 16 init=vals:i32:0,0,2147483647,-2147483648
// @bind 0:1 storage rw 8
// @expect 0:0 i32 -8128,8128,-63,63
// @expect 0:1 u32 2080,2080
struct R { add: atomic<i32>, sub: atomic<i32>, mn: atomic<i32>, mx: atomic<i32> }
var<workgroup> tot: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> r: R;
@group(0) @binding(1) var<storage, read_write> w: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) g: vec3u) {
  let v = i32(l) + i32(g.x) * 64;          // 0..127
  atomicAdd(&r.add, -v);
  atomicSub(&r.sub, -v);
  atomicMin(&r.mn, -(v % 64));
  atomicMax(&r.mx, v % 64);
  var old = atomicLoad(&tot);
  loop {
    let res = atomicCompareExchangeWeak(&tot, old, old + l + 1u);
    if (res.exchanged) { break; }
    old = res.old_value;
  }
  workgroupBarrier();
  if (l == 0u) { w[g.x] = atomicLoad(&tot); }
}
