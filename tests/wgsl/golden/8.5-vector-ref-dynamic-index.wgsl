@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var v = vec4f(1.0, 2.0, 3.0, 4.0);
  v[gid.x] = 9.0;
  out[0] = v[gid.y];
}
