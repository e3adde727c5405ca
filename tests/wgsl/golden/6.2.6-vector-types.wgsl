@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec2i(1, -2);
  let b = vec3u(1u, 2u, 3u);
  let c = vec4<bool>(true, false, true, false);
  out[0] = u32(a.x) + b.z + select(0u, 1u, c.z);
}
