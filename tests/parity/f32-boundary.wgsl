// Finite f32 boundary values survive arithmetic exactly: FLT_MAX, the smallest normal,
// -0.0 (sign kept by negation and multiplication), 2^24 + 1 rounding, 0.1 + 0.2.
// @dispatch 1
// @bind 0:0 storage read 32 init=vals:f32:3.4028234663852886e38,1.1754943508222875e-38,-0.0,16777216.0,0.1,0.2,1.0,-1.0
// @bind 0:1 storage rw 64
// @expect 0:1 f32 3.4028234663852886e38,1.1754943508222875e-38,-0.0,0.0,-0.0,16777216.0,16777218.0,0.30000001192092896,-3.4028234663852886e38,2.350988701644575e-38,1.7014117331926443e38,0.0,-0.0,1.0,0,0
@group(0) @binding(0) var<storage, read> a: array<f32, 8>;
@group(0) @binding(1) var<storage, read_write> r: array<f32, 16>;

@compute @workgroup_size(1)
fn main() {
  r[0] = a[0] * a[6];
  r[1] = a[1] * a[6];
  r[2] = a[2];
  r[3] = -a[2];
  r[4] = a[2] * a[6];
  r[5] = a[3] + a[6];          // 2^24 + 1 rounds to even: 2^24
  r[6] = a[3] + 2.0 * a[6];
  r[7] = a[4] + a[5];
  r[8] = -a[0];
  r[9] = a[1] + a[1];
  r[10] = a[0] * 0.5;
  r[11] = a[2] + a[6] - a[6];  // (-0 + 1) - 1 = +0
  r[12] = a[2] * a[6] * a[6];
  r[13] = a[7] * a[7];
}
