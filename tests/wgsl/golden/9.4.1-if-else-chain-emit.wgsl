@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let x = out[0];
  if (x == 0u) { out[1] = 1u; } else if (x == 1u) { out[1] = 2u; } else { out[1] = 3u; }
}
