struct S { v: array<u32, 3>, w: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = array<u32, 3>(gid.x, 1u, 2u);
  let s = S(a, gid.y);
  out[0] = s.v[1] + s.w;
}
