// Vector operations: swizzles (read and single-component write), component-wise arithmetic with
// scalar broadcast, comparisons into bool vectors, any/all, select with a bool vector, integer
// dot product (wrapping), cross product of small integers.
// @dispatch 1
// @bind 0:0 storage read 256 init=rand:i32:191
// @bind 0:1 storage rw 1024
// @let-py A = [x >> 20 for x in inp(0,0,'i32')]
// @expect-py 0:1 i32 [v for q in range(16) for a in [A[4*q:4*q+4]] for v in (a[2], a[0], a[3], a[1], a[0] * 3 + 1, a[1] * 3 + 1, a[2] * 3 + 1, 99, int(any(x > 0 for x in a)), int(all(x > -2048 for x in a)), sum(x * y for x, y in zip(a, reversed(a))), max(a[0], a[1]), a[1] * a[2] - a[2] * a[1] + a[1] * 0, a[2] * a[0] - a[0] * a[2], 0, q)]
@group(0) @binding(0) var<storage, read> inp: array<vec4i, 16>;
@group(0) @binding(1) var<storage, read_write> r: array<array<vec4i, 4>, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) q: u32) {
  let a = inp[q] >> vec4u(20u);
  r[q][0] = a.zxwy;
  var b = a * 3 + 1;
  b.w = 99;
  r[q][1] = b;
  let pos = a > vec4i(0);
  let big = a > vec4i(-2048);
  let m = select(a.yxzw, a, a.x > a.y);
  let c = cross(vec3f(a.xyz), vec3f(a.xyz));
  r[q][2] = vec4i(i32(any(pos)), i32(all(big)), dot(a, a.wzyx), m.x);
  r[q][3] = vec4i(i32(c.x), i32(c.y), i32(c.z), i32(q));
}
