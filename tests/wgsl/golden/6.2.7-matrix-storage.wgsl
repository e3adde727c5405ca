@group(0) @binding(0) var<storage, read_write> out: array<mat4x4f, 3>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = out[1] * out[2];
}
