// Row softmax as tensor code writes it: one workgroup of 64 per row of 256, max and sum by tree
// reductions in workgroup memory, exp of (x - max); checked within 1e-6 absolute (results are
// in [0, 1]) and the row sums within 1e-5 of 1.
// @dispatch 4
// @bind 0:0 storage read 4096 init=rand:f32:241
// @bind 0:1 storage rw 4096
// @compare 0:1 abs:0.000001
// @let-py X = [4 * v for v in inp(0,0,'f32')]
// @let-py SM = lambda row: (lambda m: (lambda e: [v / sum(e) for v in e])([math.exp(v - m) for v in row]))(max(row))
// @expect-py 0:1 f32 abs:0.000001 [v for r in range(4) for v in SM(X[256 * r:256 * r + 256])]
// @assert-py all(abs(sum(out(0,1,'f32')[256 * r:256 * r + 256]) - 1) < 1e-5 for r in range(4))
var<workgroup> red: array<f32, 64>;
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  let base = w.x * 256u;
  var m = -3.0e38;
  for (var k = l; k < 256u; k += 64u) { m = max(m, 4.0 * x[base + k]); }
  red[l] = m;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (l < s) { red[l] = max(red[l], red[l + s]); }
    workgroupBarrier();
  }
  let rowmax = red[0];
  workgroupBarrier();
  var sum = 0.0;
  for (var k = l; k < 256u; k += 64u) { sum += exp(4.0 * x[base + k] - rowmax); }
  red[l] = sum;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (l < s) { red[l] += red[l + s]; }
    workgroupBarrier();
  }
  let total = red[0];
  for (var k = l; k < 256u; k += 64u) { y[base + k] = exp(4.0 * x[base + k] - rowmax) / total; }
}
