struct C { count: atomic<u32>, hi: array<atomic<i32>, 4> }
@group(0) @binding(0) var<storage, read_write> buf: C;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  atomicAdd(&buf.count, 1u);
  atomicMax(&buf.hi[gid.x % 4u], i32(gid.x));
}
