@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec3i(out[0], out[1], out[2]);
  out[3] = dot(a, vec3i(1, -1, 2));
}
