struct I { v: vec4u, w: u32 }
struct S { inner: I, tail: array<I> }
@group(0) @binding(0) var<storage, read_write> buf: S;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  buf.inner.v = vec4u(gid, 1u);
  buf.tail[gid.x].w = 2u;
}
