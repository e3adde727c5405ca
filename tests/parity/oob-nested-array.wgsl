// Nested fixed arrays in storage, both indices out of range, for reads and writes.
// @dispatch 1
// @bind 0:0 storage rw 64 init=ramp:u32:1 pad=256
// @bind 0:1 storage rw 64 pad=256
// @expect 0:1 u32 1,6,11,16,_,_,_,_,_,_,_,_,0,0,0,0
// @assert-py all(v in set(range(1, 17)) | {0} | {0xE0 + k for k in range(4)} for v in out(0,1)[4:12])
// @assert-py all(v in set(range(1, 17)) | {0xE0 + k for k in range(4)} for v in out(0,0))
@group(0) @binding(0) var<storage, read_write> a: array<array<u32, 4>, 4>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 16>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  r[i] = a[i][i];
  r[4u + i] = a[i + 4u][i];
  r[8u + i] = a[i][i + 0xFFFFFFF0u];
  workgroupBarrier();
  a[i * 5u][i + 4u] = 0xE0u + i;
}
