// Transcendental and root builtins within WGSL's accuracy bounds (sqrt 2.5 ulp via 1/inverseSqrt,
// inverseSqrt 2 ulp, exp2/log2 within 3 + 2|x| ulp / 2^-21 absolute near 1, sin/cos 2^-11 absolute
// on [-pi, pi] only (outside it sin/cos are not checked), tanh inherited from sinh/cosh, atan2
// 4096 ulp): sin/cos within 2^-11 absolute, tanh/atan2 within 0.002, roots/exp2 16 ulp, log2 1e-4.
// @dispatch 1
// @bind 0:0 storage read 256 init=ramp:f32:0.125:0.125
// @bind 0:1 storage rw 2048
// @compare 0:1 abs:0.002
// @expect-py 0:1 f32 abs:0.00048828125 [v for x in inp(0,0,'f32') for inside in [abs(x - 4) <= math.pi] for v in (math.sin(x - 4) if inside else None, math.cos(x - 4) if inside else None, None, None, None, None, None, None)]
// @expect-py 0:1 f32 abs:0.002 [v for x in inp(0,0,'f32') for v in (None, None, math.tanh(x - 4), math.atan2(x - 4, 1.5), None, None, None, None)]
// @expect-py 0:1 f32 ulp:16 [v for x in inp(0,0,'f32') for v in (None, None, None, None, math.sqrt(x), 1 / math.sqrt(x), 2 ** (x - 4), None)]
// @expect-py 0:1 f32 abs:0.0001 [v for x in inp(0,0,'f32') for v in (None, None, None, None, None, None, None, math.log2(x))]
@group(0) @binding(0) var<storage, read> a: array<f32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<array<f32, 8>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  r[i][0] = sin(x - 4.0);
  r[i][1] = cos(x - 4.0);
  r[i][2] = tanh(x - 4.0);
  r[i][3] = atan2(x - 4.0, 1.5);
  r[i][4] = sqrt(x);
  r[i][5] = inverseSqrt(x);
  r[i][6] = exp2(x - 4.0);
  r[i][7] = log2(x);
}
