// Alias analysis: a pointer to a storage buffer that the callee only reads, while it writes the
// buffer directly (a swizzle assignment).
@group(0) @binding(0) var<storage, read_write> buf : vec4f;

fn callee(p : ptr<storage, vec4f, read_write>) -> f32 {
  let r = p.x;
  buf.yz = vec2f(r);
  return r;
}

@compute @workgroup_size(1)
fn main() {
  _ = callee(&buf);
}
