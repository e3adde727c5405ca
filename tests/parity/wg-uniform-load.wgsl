// workgroupUniformLoad broadcasts a value written by one invocation to the whole workgroup,
// which then uses it as a uniform loop bound (and before another barrier).
// @dispatch 2
// @bind 0:0 storage read 8 init=vals:u32:5,9
// @bind 0:1 storage rw 512
// @expect-py 0:1 u32 [n * (n - 1) // 2 + l for n in (5, 9) for l in range(64)]
var<workgroup> bound: u32;
@group(0) @binding(0) var<storage, read> a: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> r: array<u32, 128>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  if (l == 7u) { bound = a[w.x]; }
  let n = workgroupUniformLoad(&bound);
  var acc = 0u;
  for (var k = 0u; k < n; k++) {
    acc += k;
    workgroupBarrier();
  }
  r[w.x * 64u + l] = acc + l;
}
