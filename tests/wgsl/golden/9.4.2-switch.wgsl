@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  switch (out[0]) {
    case 0u, 1u: { out[1] = 10u; }
    case 2u: { out[1] = 20u; break; }
    case 3u, default: { out[1] = 30u; }
  }
}
