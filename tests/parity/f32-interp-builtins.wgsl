// mix, smoothstep, step, degrees, radians, clamp on ordinary values, within a few ulp.
// @dispatch 1
// @bind 0:0 storage read 256 init=ramp:f32:-1:0.03125
// @bind 0:1 storage rw 1024
// @compare 0:1 ulp:8
// @expect-py 0:1 f32 abs:0.0001 [v for x in inp(0,0,'f32') for t in [min(max((x + 0.5) / 1.0, 0.0), 1.0)] for v in (2.0 * (1 - x) + 6.0 * x, t * t * (3 - 2 * t), x * 180 / math.pi, x * math.pi / 180)]
@group(0) @binding(0) var<storage, read> a: array<f32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<vec4f, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  r[i] = vec4f(mix(2.0, 6.0, x), smoothstep(-0.5, 0.5, x), degrees(x), radians(x));
}
