@group(0) @binding(0) var<storage, read_write> out: array<f32>;
var<private> m: mat4x4f;
fn f(p: ptr<private, mat4x4f>, i: u32) -> f32 { return (*p)[i][i]; }
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) g: vec3u) {
  m = mat4x4f(vec4f(1.0), vec4f(2.0), vec4f(3.0), vec4f(4.0));
  m[g.x % 4u] = vec4f(f32(g.x));
  out[0] = f(&m, g.y);
  var v = vec3f(1.0, 2.0, 3.0);
  let pv = &v;
  pv[g.x] = 7.0;
  out[1] = pv.z + v[g.y];
}
