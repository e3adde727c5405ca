// f32 % is e1 - e2 * trunc(e1 / e2) (sign of the dividend), on values where that is exact:
// small multiples of 1/8, both signs.
// @dispatch 1
// @bind 0:0 storage read 256 init=ramp:f32:-8:0.25
// @bind 0:1 storage rw 512
// @expect-py 0:1 f32 [v for x in inp(0,0,'f32') for v in (math.fmod(x, 3.0), math.fmod(x, -1.25))]
@group(0) @binding(0) var<storage, read> a: array<f32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<vec2f, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  var d = vec2f(3.0, -1.25);
  r[i] = vec2f(x % d.x, x % d.y);
}
