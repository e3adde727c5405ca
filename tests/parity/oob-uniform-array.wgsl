// Out-of-bounds reads of a uniform array<vec4u, 4>: a value from the buffer or zero.
// @dispatch 1
// @bind 0:0 uniform 64 init=ramp:u32:1
// @bind 0:1 storage rw 128
// @expect 0:1 u32 1,2,3,4,13,14,15,16,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_,_
// @assert-py all(v in set(range(1, 17)) | {0} for v in out(0,1)[8:32])
@group(0) @binding(0) var<uniform> u: array<vec4u, 4>;
@group(0) @binding(1) var<storage, read_write> r: array<vec4u, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var idx = array<u32, 8>(0u, 3u, 4u, 5u, 16u, 1000u, 0x80000000u, 0xFFFFFFFFu);
  r[i] = u[idx[i]];
}
