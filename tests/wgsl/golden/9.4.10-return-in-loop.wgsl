@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  for (var i = 0u; i < 10u; i++) {
    if (out[i] == 0u) { return; }
  }
  out[0] = 1u;
}
