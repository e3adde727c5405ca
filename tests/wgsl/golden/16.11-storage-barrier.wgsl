@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x] = 1u;
  storageBarrier();
  out[gid.x + 1u] = out[gid.x];
}
