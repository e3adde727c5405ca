// Matrix column and element indices past the end on a storage mat4x4f and a function-scope
// mat2x2f; in-range accesses exact, out-of-range loads give some element of the matrix or 0.
// @dispatch 1
// @bind 0:0 storage read 64 init=ramp:f32:1
// @bind 0:1 storage rw 128
// @expect 0:1 f32 1,2,3,4,13,14,15,16,_,_,_,_,_,_,_,_,7,_,5,6,7,8,_,_,_,_,_,_,_,_,_,_
// @assert-py all(v in set(inp(0,0,'f32')) | {0.0} for v in out(0,1,'f32')[8:16] + [out(0,1,'f32')[17]])
// @assert-py all(v in {5.0, 6.0, 7.0, 8.0, 0.0} for v in out(0,1,'f32')[22:26])
@group(0) @binding(0) var<storage, read> m: mat4x4f;
@group(0) @binding(1) var<storage, read_write> r: array<f32, 32>;

@compute @workgroup_size(1)
fn main() {
  var c = 0u;
  var big = 4u;
  for (var k = 0u; k < 4u; k++) { r[k] = m[c][k]; r[4u + k] = m[3][k]; }
  for (var k = 0u; k < 4u; k++) { r[8u + k] = m[big][k]; r[12u + k] = m[big * 1000u][k]; }
  r[16] = m[1][2u + c];
  r[17] = m[1][big + 3u];
  var fm = mat2x2f(5.0, 6.0, 7.0, 8.0);
  r[18] = fm[0][0]; r[19] = fm[0][1]; r[20] = fm[1][0]; r[21] = fm[1][1];
  r[22] = fm[big][0]; r[23] = fm[0][big]; r[24] = fm[big][big]; r[25] = fm[0xFFFFFFFFu * (c + 1u)][1];
}
