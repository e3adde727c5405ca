// atomicMax / atomicMin on i32 and u32 over 512 random values from 8 workgroups.
// @dispatch 8
// @bind 0:0 storage read 2048 init=rand:u32:141
// @bind 0:1 storage rw 16 init=vals:i32:-2147483648,2147483647,0,4294967295
// @expect-py 0:1 i32 [max(inp(0,0,'i32')), min(inp(0,0,'i32')), i32(max(inp(0,0))), i32(min(inp(0,0)))]
struct R {
  smax: atomic<i32>,
  smin: atomic<i32>,
  umax: atomic<u32>,
  umin: atomic<u32>,
}
@group(0) @binding(0) var<storage, read> a: array<u32, 512>;
@group(0) @binding(1) var<storage, read_write> r: R;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let x = a[g.x];
  atomicMax(&r.smax, bitcast<i32>(x));
  atomicMin(&r.smin, bitcast<i32>(x));
  atomicMax(&r.umax, x);
  atomicMin(&r.umin, x);
}
