@group(0) @binding(0) var<uniform> scale: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x] = gid.x * scale;
}
