fn twice(p: ptr<storage, u32, read_write>) { *p *= 2u; }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  twice(&out[gid.x]);
}
