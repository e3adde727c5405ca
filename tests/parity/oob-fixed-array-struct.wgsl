// A fixed-size array inside a storage struct indexed past its end (and with a huge index):
// writes may land anywhere in the buffer by the spec; the canary pads must survive; the member
// after the array ends up as its initial value or a written one; reads give a buffer value or 0.
// Tint and wgc clamp to the last element, so parity compares exactly.
// @dispatch 1
// @bind 0:0 storage rw 32 init=vals:u32:1,2,3,4,0xAAAA0000,0xAAAA0001,0xAAAA0002,0xAAAA0003 pad=256
// @bind 0:1 storage rw 32 pad=256
// @assert-py all(v in {1, 2, 3, 4, 0xAAAA0000, 0xAAAA0001, 0xAAAA0002, 0xAAAA0003} | {0xC0000000 + k for k in range(4)} for v in out(0,0))
// @assert-py all(v in {1, 2, 3, 4, 0xAAAA0000, 0xAAAA0001, 0xAAAA0002, 0xAAAA0003, 0} | {0xC0000000 + k for k in range(4)} for v in out(0,1)[:4])
// @expect 0:1 u32 _,_,_,_,0,0,0,0
struct S {
  arr: array<u32, 4>,
  tail: vec4u,
}
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 8>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  var idx = array<u32, 4>(4u, 5u, 100u, 0xFFFFFFFFu);
  r[i] = s.arr[idx[i]];
  workgroupBarrier();
  s.arr[idx[i]] = 0xC0000000u + i;
}
