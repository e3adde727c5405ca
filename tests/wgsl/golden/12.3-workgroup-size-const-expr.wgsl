const W = 16;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(W * 2, 1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[0] = 1u;
}
