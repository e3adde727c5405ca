// i32 / u32 -> f32 of values below 2^24 in magnitude is exact, and f32 -> i32 of those values
// round-trips.
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:u32:182
// @bind 0:1 storage rw 768
// @expect-py 0:1 f32 [v for x in inp(0,0) for y in [(x & 0xFFFFFF) - (x >> 31) * 0xFFFFFF] for v in (float(y), float(x & 0xFFFFFF), float(y))]
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> r: array<array<f32, 3>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = a[i];
  let y = i32(x & 0xFFFFFFu) - i32(x >> 31u) * 0xFFFFFF;
  r[i][0] = f32(y);
  r[i][1] = f32(x & 0xFFFFFFu);
  r[i][2] = f32(i32(f32(y)));
}
