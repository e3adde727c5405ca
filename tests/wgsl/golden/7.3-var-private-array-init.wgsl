var<private> table: array<u32, 4> = array(1u, 2u, 4u, 8u);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x % 4u] = table[gid.x % 4u];
}
