// i32 / u32 -> f32 conversion: exact below 2^24; above, WGSL allows either neighbour of the
// exact value (checked within 1 ulp; parity compares within 1 ulp too).
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:181
// @bind 0:1 storage rw 512
// @compare 0:1 ulp:1
// @expect-py 0:1 f32 ulp:1 [v for x in inp(0,0) for v in (float(i32(x)), float(x))]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<vec2f, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  r[i] = vec2f(f32(bitcast<i32>(a[i])), f32(a[i]));
}
