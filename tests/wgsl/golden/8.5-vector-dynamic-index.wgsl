@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec4f(out[0], out[1], out[2], out[3]);
  out[4] = v[gid.x];
}
