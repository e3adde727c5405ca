@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = vec3f(vec3u(out[0], out[1], out[2]));
  let w = vec3i(v);
  out[3] = u32(w.x + w.y + w.z);
}
