@group(0) @binding(0) var<storage, read_write> vals: array<atomic<i32>>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  atomicMin(&vals[gid.x], -1);
  atomicMax(&vals[0], i32(gid.x));
}
