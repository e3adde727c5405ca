// Tree reduction of 256 values per workgroup in workgroup memory with workgroupBarrier between
// the steps; 4 workgroups.  Integer sums, so exact.
// @dispatch 4
// @bind 0:0 storage read 4096 init=rand:u32:171
// @bind 0:1 storage rw 16
// @expect-py 0:1 u32 [u32(sum(x & 0xFFFF for x in inp(0,0)[256 * w:256 * w + 256])) for w in range(4)]
var<workgroup> buf: array<u32, 256>;
@group(0) @binding(0) var<storage, read> a: array<u32, 1024>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 4>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  buf[l] = a[w.x * 256u + l] & 0xFFFFu;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (l < s) { buf[l] += buf[l + s]; }
    workgroupBarrier();
  }
  if (l == 0u) { r[w.x] = buf[0]; }
}
