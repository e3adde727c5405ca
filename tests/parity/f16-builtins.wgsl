// f16 builtins on values where the result is exact in f16: min, max, clamp, abs, floor, ceil,
// round, fma of small values, sqrt of perfect squares (within 1 ulp), dot of vec4<f16>, select,
// and f32 <-> f16 conversions of representable values.
// @requires shader-f16
// @dispatch 1
// @bind 0:0 storage read 64 init=ramp:f32:-3.75:0.5
// @bind 0:1 storage rw 512
// @expect-py 0:1 f32 [v for x in inp(0,0,'f32') for v in (min(x, 1.25), max(x, -1.25), min(max(x, -2.0), 2.0), abs(x), float(math.floor(x)), float(math.ceil(x)), float(round(x)), x * 2.0 + 0.5)]
// @bind 0:2 storage rw 64
// @expect-py 0:2 f32 ulp:1 [float(k) for k in range(16)]
// @bind 0:3 storage rw 8
// @expect 0:3 f32 32.0,-2.5
enable f16;
@group(0) @binding(0) var<storage, read> a: array<f32, 16>;
@group(0) @binding(1) var<storage, read_write> r: array<array<f32, 8>, 16>;
@group(0) @binding(2) var<storage, read_write> s: array<f32, 16>;
@group(0) @binding(3) var<storage, read_write> d: array<f32, 2>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = f16(a[i]);
  r[i][0] = f32(min(x, 1.25h));
  r[i][1] = f32(max(x, -1.25h));
  r[i][2] = f32(clamp(x, -2.0h, 2.0h));
  r[i][3] = f32(abs(x));
  r[i][4] = f32(floor(x));
  r[i][5] = f32(ceil(x));
  r[i][6] = f32(round(x));
  r[i][7] = f32(fma(x, 2.0h, 0.5h));
  let k = f16(i);
  s[i] = f32(sqrt(k * k));
  if (i == 0u) {
    d[0] = f32(dot(vec4<f16>(1.0h, 2.0h, 3.0h, 4.0h), vec4<f16>(4.0h, 3.0h, 2.0h, 4.0h)));
    d[1] = f32(select(1.0h, -2.5h, a[0] < 0.0));
  }
}
