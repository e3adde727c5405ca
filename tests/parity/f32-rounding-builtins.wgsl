// floor, ceil, round (ties to even), trunc, fract, sign, abs on exactly representable inputs.
// @dispatch 1
// @bind 0:0 storage read 64 init=vals:f32:0.5,1.5,2.5,-0.5,-1.5,-2.5,3.7,-3.7,0.0,1e20,-7.25,0.25,8388609.0,-8388609.5,100.5,-0.0
// @bind 0:1 storage rw 512
// @expect-py 0:1 f32 [v for x in inp(0,0,'f32') for v in (math.floor(x), math.ceil(x), round(x), float(math.trunc(x)), x - math.floor(x), math.copysign(1.0, x) if x != 0 else 0.0, abs(x), 0.0)]
@group(0) @binding(0) var<storage, read> a: array<f32, 16>;
@group(0) @binding(1) var<storage, read_write> r: array<array<f32, 8>, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  r[i][0] = floor(x);
  r[i][1] = ceil(x);
  r[i][2] = round(x);
  r[i][3] = trunc(x);
  r[i][4] = fract(x);
  r[i][5] = sign(x);
  r[i][6] = abs(x);
}
