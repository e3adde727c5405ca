@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  switch (out[0]) {
    default: { out[1] = 5; }
  }
  switch (out[1]) {
    case -1: { out[2] = 1; }
    default: {}
  }
}
