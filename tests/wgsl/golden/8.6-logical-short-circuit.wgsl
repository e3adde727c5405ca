@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < arrayLength(&out) && out[i] == 0u) { out[i] = 1u; }
  if (i == 0u || out[0] > 5u) { out[0] = 2u; }
}
