// A tiled matrix multiply as tensor code writes it: C[32x32] = A[32x48] B[48x32] with 16x16
// workgroups, shared-memory tiles of 16x16, barriers between the phases.  Inputs are small
// integers (ramps mod 7 and 5, offset) so every sum is exact in f32.
// @dispatch 2,2
// @bind 0:0 storage read 6144 init=ramp:f32:0
// @bind 0:1 storage read 6144 init=ramp:f32:0
// @bind 0:2 storage rw 4096
// @let-py A = [float(k % 7 - 3) for k in range(32 * 48)]
// @let-py B = [float(k % 5 - 2) for k in range(48 * 32)]
// @expect-py 0:2 f32 [sum(A[i * 48 + k] * B[k * 32 + j] for k in range(48)) for i in range(32) for j in range(32)]
var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) l: vec3u, @builtin(workgroup_id) w: vec3u) {
  let row = w.y * 16u + l.y;
  let col = w.x * 16u + l.x;
  var acc = 0.0;
  for (var t = 0u; t < 3u; t++) {
    // The inputs are ramps; turn them into the small integers the expectation uses.
    let ka = row * 48u + t * 16u + l.x;
    let kb = (t * 16u + l.y) * 32u + col;
    ta[l.y][l.x] = f32(u32(a[ka]) % 7u) - 3.0;
    tb[l.y][l.x] = f32(u32(b[kb]) % 5u) - 2.0;
    workgroupBarrier();
    for (var k = 0u; k < 16u; k++) { acc = fma(ta[l.y][k], tb[k][l.x], acc); }
    workgroupBarrier();
  }
  c[row * 32u + col] = acc;
}
