@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec2u(out[0], out[1]);
  let b = vec2u(out[1], out[0]);
  out[2] = select(0u, 1u, all(a == b)) + select(0u, 2u, any(a < b));
}
