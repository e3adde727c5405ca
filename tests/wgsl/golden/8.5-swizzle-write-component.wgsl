@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var v = vec4f(0.0);
  v.x = 1.0;
  v.g = 2.0;
  v[3] = 3.0;
  out[0] = v.x + v.y + v.w;
}
