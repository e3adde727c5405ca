// Out-of-bounds reads of a runtime-sized array (16 elements bound): WGSL says such a load
// returns a value from the buffer or zero, never memory outside the binding.  The pads around
// the binding (pad=256) hold canaries the kernel could only see by escaping.  In-bounds reads
// must be exact.  Tint and wgc both clamp the index to the last element, so parity is exact.
// @dispatch 1
// @bind 0:0 storage read 64 init=ramp:u32:100 pad=256
// @bind 0:1 storage rw 64 pad=256
// @expect 0:1 u32 100,107,115,_,_,_,_,_,_,_,_,_,_,_,_,_
// @assert-py all(v in set(inp(0,0)) | {0} for v in out(0,1)[3:12])
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(12)
fn main(@builtin(local_invocation_index) i: u32) {
  var idx = array<u32, 12>(0u, 7u, 15u, 16u, 17u, 64u, 65u, 1000u, 0x7FFFFFFFu, 0x80000000u,
                           0xFFFFFFFFu, 0xFFFFFFF0u);
  r[i] = a[idx[i]];
}
