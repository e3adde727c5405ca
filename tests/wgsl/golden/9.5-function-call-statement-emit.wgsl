@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn touch(i: u32) { out[i] = 1u; }

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  touch(gid.x);
}
