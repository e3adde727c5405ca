struct S { a: u32, b: vec2u }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let s = S(1u, vec2u(2u, 3u));
  out[0] = s.a + s.b.y;
}
