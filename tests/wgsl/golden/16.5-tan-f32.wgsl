@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let x = out[0];
  let y = out[1];
  out[2] = tan(x);
}
