// Inclusive prefix sums (Hillis-Steele, double-buffered in workgroup memory) of 4 blocks of 128
// random bytes; u32 sums, exact.
// @dispatch 4
// @bind 0:0 storage read 2048 init=rand:u32:231
// @bind 0:1 storage rw 2048
// @expect-py 0:1 u32 [sum(x & 255 for x in inp(0,0)[b * 128:b * 128 + i + 1]) for b in range(4) for i in range(128)]
var<workgroup> buf: array<array<u32, 128>, 2>;
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> r: array<u32>;

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  buf[0][l] = a[w.x * 128u + l] & 255u;
  workgroupBarrier();
  var src = 0u;
  for (var off = 1u; off < 128u; off <<= 1u) {
    var v = buf[src][l];
    if (l >= off) { v += buf[src][l - off]; }
    buf[1u - src][l] = v;
    workgroupBarrier();
    src = 1u - src;
  }
  r[w.x * 128u + l] = buf[src][l];
}
