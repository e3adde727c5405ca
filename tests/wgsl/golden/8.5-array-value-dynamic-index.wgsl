@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = array<f32, 3>(1.0, 2.0, 3.0);
  out[0] = a[gid.x];
}
