@group(0) @binding(0) var<storage, read_write> out: array<vec3f>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x] = vec3f(1.0, 2.0, 3.0);
}
