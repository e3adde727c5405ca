@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var a: i32;
  var v: vec4f;
  var s: array<u32, 4>;
  out[0] = u32(a) + u32(v.x) + s[2];
}
