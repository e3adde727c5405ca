// Matrix arithmetic on small integers (exact in f32): mat4x4 * vec4, vec4 * mat4x4, mat * mat,
// transpose, determinant of a 2x2, and a non-square mat2x2 * vec2 built from columns.
// @dispatch 1
// @bind 0:0 storage read 64 init=ramp:f32:-7:1
// @bind 0:1 storage rw 256
// @let-py M = inp(0,0,'f32')
// @let-py V = [1.0, 2.0, -1.0, 0.5]
// @expect-py 0:1 f32 [sum(M[c*4+r] * V[c] for c in range(4)) for r in range(4)] + [sum(M[c*4+r] * V[r] for r in range(4)) for c in range(4)] + [sum(M[k*4+r] * M[c*4+k] for k in range(4)) for c in range(4) for r in range(4)] + [M[r*4+c] for c in range(4) for r in range(4)] + [M[0]*M[5] - M[4]*M[1], 0, 0, 0, M[0]+2*M[2], M[1]+2*M[3], 0, 0]
@group(0) @binding(0) var<storage, read> m: mat4x4f;
@group(0) @binding(1) var<storage, read_write> r: array<vec4f, 16>;

@compute @workgroup_size(1)
fn main() {
  let v = vec4f(1.0, 2.0, -1.0, 0.5);
  r[0] = m * v;
  r[1] = v * m;
  let mm = m * m;
  for (var c = 0; c < 4; c++) { r[2 + c] = mm[c]; }
  let t = transpose(m);
  for (var c = 0; c < 4; c++) { r[6 + c] = t[c]; }
  r[10] = vec4f(determinant(mat2x2f(m[0].xy, m[1].xy)), 0.0, 0.0, 0.0);
  r[11] = vec4f(mat2x2f(m[0].xy, m[0].zw) * vec2f(1.0, 2.0), 0.0, 0.0);
}
