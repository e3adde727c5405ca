@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = vec2<bool>(out[0] == 1u, out[1] == 1u);
  let b = !a;
  out[2] = select(0u, 1u, any(b & a)) + select(0u, 2u, all(b | a));
}
