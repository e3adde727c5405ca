// INT_MIN edge cases: -INT_MIN, abs(INT_MIN), INT_MIN - 1, INT_MAX + 1, INT_MIN * -1, sign().
// @dispatch 1
// @bind 0:0 storage read 16 init=vals:i32:-2147483648,2147483647,-1,0
// @bind 0:1 storage rw 64
// @expect 0:1 i32 -2147483648,-2147483648,2147483647,-2147483648,-2147483648,-1,1,2147483647,1,1,-2147483648,0,0,0,0,0
@group(0) @binding(0) var<storage, read> a: array<i32, 4>;
@group(0) @binding(1) var<storage, read_write> r: array<i32, 16>;

@compute @workgroup_size(1)
fn main() {
  let mn = a[0];
  let mx = a[1];
  let m1 = a[2];
  r[0] = -mn;
  r[1] = abs(mn);
  r[2] = mn - 1;
  r[3] = mx + 1;
  r[4] = mn * m1;
  r[5] = sign(mn);
  r[6] = sign(mx);
  r[7] = abs(-mx);
  r[8] = m1 * m1;
  r[9] = mx * mx;
  r[10] = mn + mn - mn;
  r[11] = sign(a[3]);
}
