@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < 4u; j++) {
      if (j > i) { break; }
      out[i * 4u + j] = 1u;
    }
  }
}
