// A uniform buffer holding a struct with a vec3f + f32 pair, an array<vec4f, 2>, a mat2x2f
// (columns 8 bytes apart) and a nested struct; every member copied out to storage.
// @dispatch 1
// @bind 0:0 uniform 96 init=ramp:f32:1:0.5
// @bind 0:1 storage rw 64
// @expect-py 0:1 f32 [inp(0,0,'f32')[k] for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)]
// @bind 0:2 storage rw 32
// @expect-py 0:2 f32 [inp(0,0,'f32')[k] for k in (16, 17, 18, 19, 20, 0, 0, 0)][:5] + [0.0, 0.0, 0.0]
struct N { x: f32, y: f32 }
struct U {
  v: vec3f,              // words 0..2
  s: f32,                // word 3
  arr: array<vec4f, 2>,  // words 4..11
  m: mat2x2f,            // words 12..15
  n: N,                  // words 16..17
  t: vec2f,              // words 18..19
  last: f32,             // word 20
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> r: array<vec4f, 4>;
@group(0) @binding(2) var<storage, read_write> q: array<f32, 8>;

@compute @workgroup_size(1)
fn main() {
  r[0] = vec4f(u.v, u.s);
  r[1] = u.arr[0];
  r[2] = u.arr[1];
  r[3] = vec4f(u.m[0], u.m[1]);
  q[0] = u.n.x; q[1] = u.n.y; q[2] = u.t.x; q[3] = u.t.y; q[4] = u.last;
}
