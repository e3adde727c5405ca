struct S { x: u32, y: f32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let a = u32();
  let v = vec3u();
  let s = S();
  out[0] = a + v.x + s.x;
}
