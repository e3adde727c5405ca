@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec3f(out[0], out[1], out[2]);
  let w = v * 2.0 + 1.0;
  let u = 3.0 * w - v;
  out[3] = u.x + u.y + u.z;
}
