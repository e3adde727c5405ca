const T = array<u32, 4>(5u, 6u, 7u, 8u);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = T[gid.x % 4u];
}
