struct P { a: u32, b: u32 }
fn make(x: u32) -> P { return P(x, x * 2u); }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let p = make(gid.x);
  out[0] = p.a + p.b;
}
