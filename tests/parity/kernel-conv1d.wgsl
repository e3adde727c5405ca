// A 1-D convolution with a 5-tap kernel from a uniform buffer, zero padding at the edges
// (bounds checks in the kernel itself), integer-valued data so sums are exact.
// @dispatch 4
// @bind 0:0 storage read 1024 init=rand:u32:251
// @bind 0:1 uniform 32 init=vals:i32:1,-2,3,-2,1,0,0,0
// @bind 0:2 storage rw 1024
// @let-py X = [(v & 15) - 8 for v in inp(0,0)]
// @expect-py 0:2 i32 [sum([1, -2, 3, -2, 1][t] * (X[i + t - 2] if 0 <= i + t - 2 < 256 else 0) for t in range(5)) for i in range(256)]
struct Taps { w: array<vec4i, 2> }
@group(0) @binding(0) var<storage, read> x: array<u32, 256>;
@group(0) @binding(1) var<uniform> taps: Taps;
@group(0) @binding(2) var<storage, read_write> y: array<i32, 256>;

fn tap(t: u32) -> i32 { return taps.w[t / 4u][t % 4u]; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = i32(g.x);
  var acc = 0;
  for (var t = 0; t < 5; t++) {
    let j = i + t - 2;
    if (j >= 0 && j < 256) { acc += tap(u32(t)) * (i32(x[j] & 15u) - 8); }
  }
  y[g.x] = acc;
}
