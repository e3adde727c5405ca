@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = out[0];
  let b = out[1];
  out[2] = select(0.0, 1.0, a < b) + select(0.0, 2.0, a != b) + select(0.0, 4.0, a == b);
}
