// atomicCompareExchangeWeak in a retry loop implements a multiply-free "add" and a max: the
// final values are fixed; each invocation counts its successes (exactly one each).
// @dispatch 4
// @bind 0:0 storage rw 8 init=vals:u32:5,0
// @bind 0:1 storage rw 1024
// @expect 0:0 u32 32645,255
// @assert-py out(0,1) == [1] * 256
@group(0) @binding(0) var<storage, read_write> acc: array<atomic<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> wins: array<u32, 256>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  var n = 0u;
  var old = atomicLoad(&acc[0]);
  loop {
    let res = atomicCompareExchangeWeak(&acc[0], old, old + g.x);
    if (res.exchanged) { n += 1u; break; }
    old = res.old_value;
  }
  wins[g.x] = n;
  var cur = atomicLoad(&acc[1]);
  loop {
    if (cur >= g.x) { break; }
    let res = atomicCompareExchangeWeak(&acc[1], cur, g.x);
    if (res.exchanged) { break; }
    cur = res.old_value;
  }
}
